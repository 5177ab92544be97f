import { createFileRoute } from "@tanstack/react-router";
import { MappingScreen } from "../../features/mapping/mapping-screen.tsx";

export const Route = createFileRoute("/_app/mapping")({
  staticData: { access: "subscriber" },
  component: MappingScreen,
});
