import type { ShopifyStore } from "../connectors/shopify/store.ts";
import { describeError } from "../errors.ts";
import type { HeldChangeRow, HeldRepo, PlanOffsets } from "../history/held-repo.ts";
import type { RunFailure, RunSkip } from "../history/repo.ts";
import type { MappingPlan } from "./plan.ts";

/** Hands each chunk's plans to `store`, chunk after chunk (the run plans them again for it). */
export type PlanChunks = (store: (plans: readonly MappingPlan[]) => Promise<void>) => Promise<void>;

/**
 * Records a run the safety limits stopped before any write: its entry becomes `held`, with the
 * reasons, the counts of what needed no write (already in line, skipped, values that cannot be
 * sent) and the plan, one row per field change, for a person to approve or discard. The plan is
 * stored chunk by chunk (`onChunk` sees each chunk's plans too); `locationIds`: where its
 * quantity changes are, named once for all of them.
 */
export async function recordHeldRun(
  deps: { held: HeldRepo; store: ShopifyStore; log?: (line: string) => void },
  run: {
    id: string;
    userId: string;
    heldAt: string;
    reasons: string[];
    locationIds: readonly string[];
    chunks: PlanChunks;
    onChunk: (plans: readonly MappingPlan[]) => void;
  },
): Promise<void> {
  const names = await locationNames(deps, run.locationIds);
  const stored = await storeParts(deps.held, {
    id: run.id,
    chunks: run.chunks,
    rowsOf: (plans) => {
      run.onChunk(plans);
      const { skips: _skips, ...before } = beforeWrites(plans);
      const changes = heldChangesOf(plans).map((change) => ({
        ...change,
        locationName: change.locationId ? (names.get(change.locationId) ?? null) : null,
      }));
      return { ...before, skips: [], changes };
    },
  });
  const held = await deps.held.hold({
    id: run.id,
    userId: run.userId,
    heldAt: run.heldAt,
    reasons: run.reasons,
    ...stored.counts,
    changeCount: stored.offsets.changes,
  });
  // Closed (as failed) while its plan was stored: the rows stored so far are no plan's.
  if (!held) await deps.held.dropPartialPlan(run.id);
}

/**
 * A job's checkpoint before its writes: the plan stored with the open entry, chunk by chunk, so an
 * instance that resumes the job applies exactly it (held-apply.ts) instead of reading and planning
 * again. Answers how many changes it stored, or null when the entry is no longer open.
 */
export async function storeRunPlan(
  held: Pick<HeldRepo, "storeRows" | "discardUnsavedPlan" | "storePlan" | "dropPartialPlan">,
  run: { id: string; userId: string; chunks: PlanChunks },
): Promise<number | null> {
  const stored = await storeParts(held, {
    id: run.id,
    chunks: run.chunks,
    rowsOf: (plans) => ({ ...beforeWrites(plans), changes: heldChangesOf(plans) }),
  });
  if (await held.storePlan({ id: run.id, userId: run.userId, ...stored.counts }))
    return stored.offsets.changes;
  await held.dropPartialPlan(run.id);
  return null;
}

/** Stores each chunk's rows (numbered on from the chunks before) and answers the run's counts. */
async function storeParts(
  held: Pick<HeldRepo, "storeRows" | "discardUnsavedPlan">,
  run: {
    id: string;
    chunks: PlanChunks;
    rowsOf: (plans: readonly MappingPlan[]) => ReturnType<typeof beforeWrites> & { changes: HeldChangeRow[] };
  },
): Promise<{
  counts: { successCount: number; failureCount: number; skippedCount: number };
  offsets: PlanOffsets;
}> {
  const counts = { successCount: 0, failureCount: 0, skippedCount: 0 };
  const offsets: PlanOffsets = { failures: 0, skips: 0, changes: 0 };
  await held.discardUnsavedPlan(run.id);
  await run.chunks(async (plans) => {
    const rows = run.rowsOf(plans);
    await held.storeRows(run.id, rows, offsets);
    counts.successCount += rows.successCount;
    counts.failureCount += rows.failureCount;
    counts.skippedCount += rows.skippedCount;
    offsets.failures += rows.failures.length;
    offsets.skips += rows.skips.length;
    offsets.changes += rows.changes.length;
  });
  return { counts, offsets };
}

/** What a plan settles before any write: mappings in line, values that cannot be sent, skips. */
function beforeWrites(plans: readonly MappingPlan[]) {
  let successCount = 0;
  const failures: RunFailure[] = [];
  const skips: RunSkip[] = [];
  for (const plan of plans) {
    const item = {
      mappingId: plan.target.mappingId,
      shopifySku: plan.target.shopifySku,
      acumaticaSku: plan.target.acumaticaSku,
    };
    const failed = plan.outcome === "failed" ? plan.reason : plan.refused.join("; ");
    if (failed) failures.push({ ...item, error: failed });
    else if (plan.outcome === "unchanged") successCount += 1;
    else if (plan.outcome === "skipped") skips.push({ ...item, reason: plan.reason ?? "skipped" });
  }
  return { successCount, failureCount: failures.length, skippedCount: skips.length, failures, skips };
}

/** The plan's writes as rows: price, compare-at price and quantity each a change of its own. */
function heldChangesOf(plans: readonly MappingPlan[]): HeldChangeRow[] {
  const rows: HeldChangeRow[] = [];
  for (const plan of plans) {
    if (plan.outcome !== "planned" || !plan.shopify) continue;
    const base = {
      mappingId: plan.target.mappingId,
      shopifySku: plan.target.shopifySku,
      acumaticaSku: plan.target.acumaticaSku,
      productId: plan.shopify.productId,
      variantId: plan.target.shopifyVariantId,
      inventoryItemId: null,
      locationId: null,
      locationName: null,
      quantityName: null,
    };
    if (plan.prices?.priceCents !== undefined)
      rows.push({ ...base, field: "price", from: plan.shopify.priceCents, to: plan.prices.priceCents });
    if (plan.prices?.compareAtCents !== undefined)
      rows.push({
        ...base,
        field: "compareAtPrice",
        from: plan.shopify.compareAtCents,
        to: plan.prices.compareAtCents,
      });
    for (const quantity of plan.quantities)
      rows.push({
        ...base,
        field: "quantity",
        inventoryItemId: quantity.inventoryItemId,
        locationId: quantity.locationId,
        quantityName: quantity.name,
        from: quantity.from,
        to: quantity.to,
      });
  }
  return rows;
}

/** One call for every location the plan writes at; a name is for people, so failing to read one holds the run all the same. */
async function locationNames(
  deps: { store: ShopifyStore; log?: (line: string) => void },
  ids: readonly string[],
): Promise<Map<string, string>> {
  try {
    return await deps.store.locationNames(ids);
  } catch (error) {
    deps.log?.(`held run: location names not read: ${describeError(error)}`);
    return new Map();
  }
}
