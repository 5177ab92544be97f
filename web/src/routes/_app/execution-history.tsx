import { createFileRoute } from "@tanstack/react-router";
import { ExecutionHistoryScreen } from "../../features/history/execution-history-screen.tsx";

export const Route = createFileRoute("/_app/execution-history")({
  staticData: { access: "subscriber" },
  component: ExecutionHistoryScreen,
});
