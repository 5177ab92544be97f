import { type ConnectionPage, readCostSizedPages } from "./cost-sized-pages.ts";
import type { ShopifyPort } from "./port.ts";
import { CHANGED_VARIANTS_QUERY } from "./sync-operations.ts";

/**
 * Ids (gid://shopify/ProductVariant/N) of the variants updated after `since`: Shopify moves a
 * variant's updated_at when the variant is written (price, compare-at, SKU) or created, not when
 * its inventory changes. Cost-sized pages of ids in id order; null (the caller reads in full) as
 * soon as they pass `limit`. Not counted first: `productVariantsCount` has no supported search
 * fields (every Admin schema says so), so it cannot count a search.
 */
export async function readChangedVariants(
  port: ShopifyPort,
  options: { since: Date; limit: number },
): Promise<Set<string> | null> {
  const ids = new Set<string>();
  await readCostSizedPages<{ id: string }, { productVariants: ConnectionPage<{ id: string }> }>(
    port.execute,
    {
      query: CHANGED_VARIANTS_QUERY,
      variables: { query: updatedSince(options.since) },
      pageOf: (data) => data.productVariants,
      // A node of scalar fields: one point.
      perNode: 1,
      left: () => null,
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
