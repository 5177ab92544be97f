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

/** Starts auto mapping as a job and answers it at once; its result is an AutoMapResult. One at a time per user. */
export function startAutoMapJob(deps: AutoMapJobDeps, userId: string): Promise<Job> {
  return deps.jobs.start(
    userId,
    "auto-map",
    async (context) => {
      const result = await autoMapBySku(deps, userId, (done, total) =>
        context.progress({ done, total, phase: "Creating mappings" }),
      );
      return { message: MESSAGES.mapping.autoMapped, result };
    },
    { busyMessage: "Auto mapping is already running; wait for it to finish.", phase: "Matching SKUs" },
  );
}
