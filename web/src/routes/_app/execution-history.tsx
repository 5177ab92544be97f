import { createFileRoute } from "@tanstack/react-router";
import * as v from "valibot";
import { ExecutionHistoryScreen } from "../../features/history/execution-history-screen.tsx";

/** `entry` opens that run's details (the link of a notification); anything else in it is ignored. */
const HistorySearchSchema = v.object({
  entry: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(64))), undefined),
});

export const Route = createFileRoute("/_app/execution-history")({
  staticData: { access: "subscriber" },
  validateSearch: HistorySearchSchema,
  component: ExecutionHistoryRoute,
});

function ExecutionHistoryRoute() {
  const { entry } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <ExecutionHistoryScreen
      entryId={entry}
      onEntryClosed={() => void navigate({ search: {}, replace: true })}
    />
  );
}
