import type { DriftField } from "@stockbridge/shared";
import type { FieldDrift, SyncTarget } from "../sync/plan.ts";
import type { DriftRepo, DriftRow, DriftSource } from "./repo.ts";

/** What one run found to differ, per mapping it read, and which fields it compared. */
export interface RunFindings {
  fields: DriftField[];
  found: { target: SyncTarget; drift: FieldDrift[] }[];
}

/**
 * Records a run's findings as drift rows: a run of every mapping replaces the user's list, a run of
 * some replaces their rows. Answers how many of the run's mappings differ.
 */
export async function recordFindings(
  repo: Pick<DriftRepo, "record">,
  run: {
    userId: string;
    everyMapping: boolean;
    checkedAt: string;
    source: DriftSource;
    historyId: string | null;
  },
  findings: RunFindings,
): Promise<number> {
  const items: DriftRow[] = findings.found.flatMap(({ target, drift }) =>
    drift.map((field) => ({
      mappingId: target.mappingId,
      shopifySku: target.shopifySku,
      acumaticaSku: target.acumaticaSku,
      ...field,
    })),
  );
  await repo.record(run.userId, {
    scope: run.everyMapping ? "all" : findings.found.map(({ target }) => target.mappingId),
    checkedAt: run.checkedAt,
    mappings: findings.found.length,
    fields: findings.fields,
    source: run.source,
    historyId: run.historyId,
    items,
  });
  return new Set(items.map((item) => item.mappingId)).size;
}
