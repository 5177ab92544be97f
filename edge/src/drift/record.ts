import type { DriftField } from "@stockbridge/shared";
import type { FieldDrift, SyncTarget } from "../sync/plan.ts";
import type { DriftRepo, DriftRow, DriftSource } from "./repo.ts";

/**
 * What one run finds to differ, gathered mapping by mapping as its chunks settle: the rows of the
 * fields that differ, how many mappings it read and, for a run of some mappings, which.
 */
export class FoundDrift {
  readonly items: DriftRow[] = [];
  /** The mappings read, kept only for a run of some mappings (it replaces only their rows). */
  readonly mappingIds: string[] = [];
  mappings = 0;
  /** Mappings with at least one field that differs. */
  drifted = 0;

  /** A run of every mapping: its rows replace the user's whole list. */
  constructor(readonly everyMapping: boolean) {}

  add(target: SyncTarget, drift: readonly FieldDrift[]): void {
    this.mappings += 1;
    if (!this.everyMapping) this.mappingIds.push(target.mappingId);
    if (drift.length > 0) this.drifted += 1;
    for (const field of drift)
      this.items.push({
        mappingId: target.mappingId,
        shopifySku: target.shopifySku,
        acumaticaSku: target.acumaticaSku,
        ...field,
      });
  }
}

/** What one run found to differ, and which fields it compared. */
export interface RunFindings {
  fields: DriftField[];
  found: FoundDrift;
}

/**
 * Records a run's findings as drift rows: a run of every mapping replaces the user's list, a run of
 * some replaces their rows. Answers how many of the run's mappings differ.
 */
export async function recordFindings(
  repo: Pick<DriftRepo, "record">,
  run: {
    userId: string;
    checkedAt: string;
    source: DriftSource;
    historyId: string | null;
  },
  findings: RunFindings,
): Promise<number> {
  const { found } = findings;
  await repo.record(run.userId, {
    scope: found.everyMapping ? "all" : found.mappingIds,
    checkedAt: run.checkedAt,
    mappings: found.mappings,
    fields: findings.fields,
    source: run.source,
    historyId: run.historyId,
    items: found.items,
  });
  return found.drifted;
}
