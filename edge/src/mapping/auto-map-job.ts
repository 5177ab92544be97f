import type { Job } from "@stockbridge/shared";
import { MESSAGES } from "@stockbridge/shared";
import type { PlanGate } from "../billing/plan-gate.ts";
import type { JobRunner } from "../jobs/runner.ts";
import { autoMapBySku } from "./auto-map.ts";
import type { MappingRepo } from "./repo.ts";

export interface AutoMapJobDeps {
  jobs: JobRunner;
  repo: MappingRepo;
  plans: PlanGate;
  now: () => Date;
  newId: () => string;
}

/**
 * Auto mapping as a job, on whichever instance claims it; its result is an AutoMapResult. A resumed
 * one simply runs again: mappings the stopped attempt created are found as already mapped.
 */
export function handleAutoMapJobs(deps: AutoMapJobDeps): void {
  deps.jobs.handle("auto-map", async (context) => {
    const result = await autoMapBySku(deps, context.userId, (done, total) =>
      context.progress({ done, total, phase: "Creating mappings" }),
    );
    return { message: MESSAGES.mapping.autoMapped, result };
  });
}

/** Starts auto mapping and answers the job at once. One at a time per user. */
export function startAutoMapJob(deps: Pick<AutoMapJobDeps, "jobs">, userId: string): Promise<Job> {
  return deps.jobs.start(userId, {
    kind: "auto-map",
    input: {},
    busyMessage: "Auto mapping is already running; wait for it to finish.",
    phase: "Matching SKUs",
  });
}
