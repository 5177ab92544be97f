import { createFileRoute } from "@tanstack/react-router";
import { MappingSchedulesScreen } from "../../features/schedules/mapping-schedules-screen.tsx";

export const Route = createFileRoute("/_app/mapping-schedule")({
  staticData: { access: "subscriber" },
  component: MappingSchedulesScreen,
});
