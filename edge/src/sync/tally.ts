import type { MappingSyncResult } from "@stockbridge/shared";
import type { RunFailure, RunSkip } from "../history/repo.ts";
import type { RunCounts } from "./settle.ts";

/** What a job answers of a run instead of every mapping's result (sync-job.ts). */
export interface RunSummary {
  total: number;
  unchanged: number;
  planned: number;
  /** The first planned results, up to the number the run was asked to keep. */
  firstPlanned: MappingSyncResult[];
}

/**
 * A run's results as its chunks settle: the counts, the failures and skips its history entry lists,
 * and the results themselves, every one (`plannedKept` null: the caller answers them) or only the
 * first `plannedKept` planned ones (a job keeps counts: a 100,000-mapping run holds no result each).
 */
export class RunTally {
  readonly counts: RunCounts = { success: 0, failure: 0, skipped: 0 };
  readonly failures: RunFailure[] = [];
  readonly skips: RunSkip[] = [];
  readonly results: MappingSyncResult[] = [];
  total = 0;
  unchanged = 0;
  planned = 0;

  constructor(private readonly plannedKept: number | null) {}

  add(result: MappingSyncResult): void {
    this.total += 1;
    const item = {
      mappingId: result.mappingId,
      shopifySku: result.shopifySku,
      acumaticaSku: result.acumaticaSku,
    };
    if (result.outcome === "succeeded" || result.outcome === "unchanged") this.counts.success += 1;
    if (result.outcome === "unchanged") this.unchanged += 1;
    if (result.outcome === "failed") {
      this.counts.failure += 1;
      this.failures.push({ ...item, error: result.reason ?? "failed" });
    }
    if (result.outcome === "skipped") {
      this.counts.skipped += 1;
      this.skips.push({ ...item, reason: result.reason ?? "skipped" });
    }
    if (result.outcome === "planned") this.planned += 1;
    if (this.plannedKept === null) this.results.push(result);
    else if (result.outcome === "planned" && this.results.length < this.plannedKept)
      this.results.push(result);
  }

  /** The summary a job answers (only when results were not all kept). */
  summary(): RunSummary | undefined {
    if (this.plannedKept === null) return undefined;
    return {
      total: this.total,
      unchanged: this.unchanged,
      planned: this.planned,
      firstPlanned: this.results,
    };
  }
}
