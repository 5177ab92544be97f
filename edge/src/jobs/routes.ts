import { MESSAGES } from "@stockbridge/shared";
import type { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { UnauthorizedError } from "../errors.ts";
import type { Handlers } from "../http/contract-routes.ts";
import type { AppEnv, Caller } from "../http/types.ts";
import type { JobRunner } from "./runner.ts";

export function jobHandlers(jobs: JobRunner): Handlers {
  return {
    job: ({ caller, input }) => jobs.get(caller.userId, input.params.id),
  };
}

/** How often a stream re-reads the row when nothing in this process said it changed (other instances). */
const POLL_MS = 1_000;

/**
 * `GET /api/jobs/:id/events`: Server-Sent Events with the job as `progress` events until a final
 * `done` event. Outside the contract; EventSource cannot set headers, so the token may come as
 * `?token=`, verified by the same authenticate function as every other route.
 */
export function registerJobEvents(
  app: Hono<AppEnv>,
  deps: { authenticate(token: string): Promise<Caller>; jobs: JobRunner; pollMs?: number },
) {
  const pollMs = deps.pollMs ?? POLL_MS;
  app.get("/api/jobs/:id/events", async (c) => {
    const token = c.req.header("Authorization")?.match(/^Bearer\s+(.+)$/i)?.[1] ?? c.req.query("token");
    if (!token) throw new UnauthorizedError(MESSAGES.access.loginRequired);
    const caller = await deps.authenticate(token);
    const jobId = c.req.param("id");
    const first = await deps.jobs.get(caller.userId, jobId);
    c.header("Cache-Control", "no-store");
    return streamSSE(c, async (stream) => {
      let job = first;
      let sent = "";
      let wake: (() => void) | null = null;
      // A change that lands while the stream is writing or reading is not lost: it is counted, and
      // the loop reads the job again instead of waiting (the job's end used to wait for the poll).
      let changes = 0;
      let seen = 0;
      const unsubscribe = deps.jobs.subscribe(jobId, () => {
        changes += 1;
        wake?.();
      });
      stream.onAbort(() => wake?.());
      try {
        while (!stream.aborted) {
          const data = JSON.stringify(job);
          if (data !== sent) {
            await stream.writeSSE({ event: "progress", data });
            sent = data;
          }
          if (job.status === "succeeded" || job.status === "failed") {
            await stream.writeSSE({ event: "done", data });
            return;
          }
          if (changes === seen) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, pollMs);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wake = null;
          }
          seen = changes;
          job = await deps.jobs.get(caller.userId, jobId);
        }
      } finally {
        unsubscribe();
      }
    });
  });
}
