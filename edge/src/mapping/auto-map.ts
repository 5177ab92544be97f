import type { AutoMapResult } from "@stockbridge/shared";
import type { PlanGate } from "../billing/plan-gate.ts";
import type { AutoMapCandidate } from "../catalog/cache-repo.ts";
import type { MappingRepo, NewMapping } from "./repo.ts";

const INSERT_CHUNK = 500;

export interface AutoMapDeps {
  repo: MappingRepo;
  /** What the plan allows: pairs past its number of mapped products are counted, not mapped. */
  plans: PlanGate;
  now: () => Date;
  newId: () => string;
}

/**
 * Maps every variant to the ERP item with the identical SKU (the catalogs' `sku_key`: trimmed,
 * case-insensitive). A SKU that repeats on either side is never guessed: it is skipped and listed.
 * Pairs where either side is already mapped are left alone and counted, and so are pairs past the
 * plan's number of mapped products.
 */
export async function autoMapBySku(
  deps: AutoMapDeps,
  userId: string,
  onProgress: (done: number, total: number) => Promise<void> | void = () => {},
): Promise<AutoMapResult> {
  const candidates = await deps.repo.autoMapCandidates(userId);
  const shopify = groupByKey(candidates.shopify);
  const acumatica = groupByKey(candidates.acumatica);
  const duplicateSkus = { shopify: duplicatesOf(shopify), acumatica: duplicatesOf(acumatica) };

  const now = deps.now().toISOString();
  const planned: NewMapping[] = [];
  let alreadyMapped = 0;
  for (const [key, variants] of shopify) {
    const items = acumatica.get(key);
    if (!items || variants.length > 1 || items.length > 1) continue;
    const variant = variants[0]!;
    const item = items[0]!;
    if (variant.mapped || item.mapped) {
      alreadyMapped += 1;
      continue;
    }
    planned.push({
      id: deps.newId(),
      userId,
      shopifyVariantId: variant.externalId,
      shopifySku: variant.sku,
      acumaticaId: item.externalId,
      acumaticaSku: item.sku,
      mappingType: "exact-sku",
      now,
    });
  }

  let created = 0;
  let overPlanLimit = 0;
  const max = await deps.plans.maxMappings(userId);
  await onProgress(0, planned.length);
  for (let start = 0; start < planned.length; start += INSERT_CHUNK) {
    const chunk = planned.slice(start, start + INSERT_CHUNK);
    const inserted = await deps.repo.insertMany(userId, chunk, max);
    created += inserted.created;
    overPlanLimit += inserted.overLimit;
    await onProgress(Math.min(start + INSERT_CHUNK, planned.length), planned.length);
  }
  // A pair that someone mapped by hand while this ran was skipped by the insert: it is mapped now.
  alreadyMapped += planned.length - overPlanLimit - created;
  const planLimit =
    overPlanLimit > 0
      ? (await deps.plans.mappingRefusal(userId, await deps.repo.count(userId))).message
      : null;
  return { created, alreadyMapped, duplicateSkus, overPlanLimit, planLimit };
}

function groupByKey(rows: AutoMapCandidate[]): Map<string, AutoMapCandidate[]> {
  const groups = new Map<string, AutoMapCandidate[]>();
  for (const row of rows) {
    // A blank SKU identifies nothing; it is neither matched nor reported as a duplicate.
    if (row.skuKey === "") continue;
    const group = groups.get(row.skuKey);
    if (group) group.push(row);
    else groups.set(row.skuKey, [row]);
  }
  return groups;
}

/** Every spelling of each repeated SKU (e.g. "DUP-ERP-1" and "Dup-Erp-1"), sorted. */
function duplicatesOf(groups: Map<string, AutoMapCandidate[]>): string[] {
  const skus = new Set<string>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    for (const row of group) skus.add(row.sku.trim());
  }
  return [...skus].sort();
}
