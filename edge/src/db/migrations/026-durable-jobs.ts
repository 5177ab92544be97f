import type { Migration } from "../migrate.ts";

export const durableJobs: Migration = {
  version: 26,
  name: "durable jobs: claimable by any instance, resumable from a checkpoint",
  statements: [
    // The instance's claim that holds the lease (a random id per process): only it may renew,
    // checkpoint or finish the job, so an instance that lost its lease cannot overwrite the one
    // that took over.
    "ALTER TABLE jobs ADD COLUMN owner TEXT",
    // Claims so far: a job whose instance keeps dying (out of memory on it) ends failed, not forever.
    "ALTER TABLE jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0",
    // What the work saved after its last finished step (JSON), read back when another instance resumes it.
    "ALTER TABLE jobs ADD COLUMN checkpoint_json TEXT",
    // The schedule whose run this job is: the tick never queues a second run of one schedule.
    "ALTER TABLE jobs ADD COLUMN schedule_id TEXT",
    "CREATE INDEX jobs_schedule_live ON jobs(schedule_id) WHERE schedule_id IS NOT NULL AND status IN ('queued', 'running')",
    "CREATE INDEX jobs_user_kind_live ON jobs(user_id, kind) WHERE status IN ('queued', 'running')",
  ],
};
