import { createFileRoute } from "@tanstack/react-router";
import { DriftScreen } from "../../features/drift/drift-screen.tsx";

export const Route = createFileRoute("/_app/drift")({
  staticData: { access: "subscriber" },
  component: DriftScreen,
});
