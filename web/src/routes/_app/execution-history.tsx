import { createFileRoute } from "@tanstack/react-router";
import * as v from "valibot";
import { ExecutionHistoryScreen } from "../../features/history/execution-history-screen.tsx";

/** `?run=<id>` opens that run's details (the dashboard links its last run here). */
const HistorySearchSchema = v.object({
  run: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(64))), undefined),
});

export const Route = createFileRoute("/_app/execution-history")({
  staticData: { access: "subscriber" },
  validateSearch: HistorySearchSchema,
  component: ExecutionHistoryRoute,
});

function ExecutionHistoryRoute() {
  const { run } = Route.useSearch();
  return <ExecutionHistoryScreen runId={run} />;
}
