import type { ShopifyStore } from "../connectors/shopify/store.ts";
import { describeError } from "../errors.ts";
import type { HeldChangeRow, HeldRepo } from "../history/held-repo.ts";
import type { RunFailure, RunSkip } from "../history/repo.ts";
import type { MappingPlan } from "./plan.ts";

/**
 * Records a run the safety limits stopped before any write: its entry becomes `held`, with the
 * reasons, the counts of what needed no write (already in line, skipped, values that cannot be
 * sent) and the plan, one row per field change, for a person to approve or discard.
 */
export async function recordHeldRun(
  deps: { held: HeldRepo; store: ShopifyStore; log?: (line: string) => void },
  run: { id: string; userId: string; heldAt: string; reasons: string[]; plans: readonly MappingPlan[] },
): Promise<void> {
  const changes = heldChangesOf(run.plans);
  const names = await locationNames(deps, changes);
  const { skips: _skips, ...before } = beforeWrites(run.plans);
  await deps.held.hold({
    id: run.id,
    userId: run.userId,
    heldAt: run.heldAt,
    reasons: run.reasons,
    ...before,
    changes: changes.map((change) => ({
      ...change,
      locationName: change.locationId ? (names.get(change.locationId) ?? null) : null,
    })),
  });
}

/**
 * A job's checkpoint before its writes: the plan stored with the open entry, so an instance that
 * resumes the job applies exactly it (held-apply.ts) instead of reading and planning again.
 * Answers how many changes it stored, or null when the entry is no longer open.
 */
export async function storeRunPlan(
  held: Pick<HeldRepo, "storePlan">,
  run: { id: string; userId: string; plans: readonly MappingPlan[] },
): Promise<number | null> {
  const changes = heldChangesOf(run.plans);
  const stored = await held.storePlan({
    id: run.id,
    userId: run.userId,
    ...beforeWrites(run.plans),
    changes,
  });
  return stored ? changes.length : null;
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
  changes: readonly HeldChangeRow[],
): Promise<Map<string, string>> {
  const ids = [...new Set(changes.flatMap((change) => (change.locationId ? [change.locationId] : [])))];
  try {
    return await deps.store.locationNames(ids);
  } catch (error) {
    deps.log?.(`held run: location names not read: ${describeError(error)}`);
    return new Map();
  }
}
