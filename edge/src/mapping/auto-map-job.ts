import type { Job } from "@stockbridge/shared";
import type { Db } from "../db/client.ts";
import { autoMapBySku } from "./auto-map.ts";
import type { MappingRepo } from "./repo.ts";

export interface AutoMapJobDeps {
  db: Db;
  repo: MappingRepo;
  now: () => Date;
  newId: () => string;
}

/** Starts auto mapping as a job row and answers it at once; the work continues in the background. */
export async function startAutoMapJob(deps: AutoMapJobDeps, userId: string): Promise<Job> {
  const id = deps.newId();
  const createdAt = deps.now().toISOString();
  await deps.db.execute({
    sql: "INSERT INTO jobs (id, user_id, kind, status, phase, created_at, started_at) VALUES (?, ?, 'auto-map', 'running', 'matching', ?, ?)",
    args: [id, userId, createdAt, createdAt],
  });
  void autoMapBySku(deps, userId)
    .then((result) =>
      deps.db.execute({
        sql: "UPDATE jobs SET status = 'succeeded', result_json = ?, finished_at = ? WHERE id = ?",
        args: [JSON.stringify(result), deps.now().toISOString(), id],
      }),
    )
    .catch((error: unknown) =>
      deps.db.execute({
        sql: "UPDATE jobs SET status = 'failed', message = ?, finished_at = ? WHERE id = ?",
        args: [error instanceof Error ? error.message : String(error), deps.now().toISOString(), id],
      }),
    );
  return {
    _id: id,
    kind: "auto-map",
    status: "running",
    progress: { done: 0, total: null, phase: "matching" },
    message: null,
    result: null,
    createdAt,
    finishedAt: null,
  };
}
