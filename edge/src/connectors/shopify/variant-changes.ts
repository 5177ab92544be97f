import { type ConnectionPage, countVariants, readCostSizedPages } from "./cost-sized-pages.ts";
import type { ShopifyPort } from "./port.ts";
import { CHANGED_VARIANTS_COUNT_QUERY, CHANGED_VARIANTS_QUERY } from "./sync-operations.ts";

/**
 * Ids (gid://shopify/ProductVariant/N) of the variants updated after `since`: Shopify moves a
 * variant's updated_at when the variant is written (price, compare-at, SKU) or created, not when
 * its inventory changes. First `productVariantsCount` over the same search: null (the caller reads
 * in full) when the version cannot count (before 2024-10) or more than `limit` changed, without a
 * page read. Then cost-sized pages in id order; null too if the pages find more than `limit`
 * (variants changed meanwhile, or the count was only a lower bound).
 */
export async function readChangedVariants(
  port: ShopifyPort,
  options: { since: Date; limit: number },
): Promise<Set<string> | null> {
  const query = updatedSince(options.since);
  const counted = await countVariants(port.execute, {
    query: CHANGED_VARIANTS_COUNT_QUERY,
    variables: { query },
    what: "the changed-variants count",
  });
  if (!counted || counted.count > options.limit) return null;
  // AT_LEAST: Shopify stopped counting at a limit of its own, so the count leaves no bound.
  const total = counted.precision === "EXACT" ? counted.count : null;
  const ids = new Set<string>();
  await readCostSizedPages<{ id: string }, { productVariants: ConnectionPage<{ id: string }> }>(
    port.execute,
    {
      query: CHANGED_VARIANTS_QUERY,
      variables: { query },
      pageOf: (data) => data.productVariants,
      // A node of scalar fields: one point.
      perNode: 1,
      left: () => (total === null ? null : total - ids.size),
      what: "the changed-variants page",
      onPage: async (nodes) => {
        for (const node of nodes) ids.add(node.id);
        return ids.size <= options.limit;
      },
    },
  );
  return ids.size > options.limit ? null : ids;
}

/**
 * The search for variants updated after `since`. Shopify keeps updated_at to the second: a change
 * in the same second as `since` carries that second, so the search starts at it (`>=`), reading
 * again at most what changed in that second before `since`.
 */
function updatedSince(since: Date): string {
  const second = new Date(Math.floor(since.getTime() / 1000) * 1000).toISOString().replace(".000Z", "Z");
  return `updated_at:>='${second}'`;
}
