import type { Handlers } from "../http/contract-routes.ts";
import type { DriftService } from "./service.ts";

/** Thin adapters from the contract to the drift service; the CSV answers as a streamed attachment. */
export function driftHandlers(drift: DriftService): Handlers {
  return {
    drift: ({ caller }) => drift.summary(caller.userId),
    driftCsv: async ({ caller }) =>
      new Response(await drift.csv(caller.userId), {
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": 'attachment; filename="drift.csv"',
          "Cache-Control": "no-store",
        },
      }),
    fixDrift: async ({ caller }) => ({ job: await drift.fix(caller.userId) }),
  };
}
