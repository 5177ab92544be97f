import { type GraphqlResponse, ShopifyError } from "./graphql-client.ts";
import type { ShopifyPort } from "./port.ts";
import { CHANGED_VARIANTS_COUNT_QUERY, CHANGED_VARIANTS_QUERY } from "./sync-operations.ts";

/** Shopify's single-query cap until an answer names another, and its page cap. */
const MAX_QUERY_COST = 1_000;
const MAX_PAGE = 250;
/** A connection's own points, and a node of scalar fields (the documented rules, before an answer says). */
const CONNECTION_COST = 2;
const NODE_COST = 1;

interface CountAnswer {
  productVariantsCount: { count: number; precision: "EXACT" | "AT_LEAST" } | null;
}

interface PageAnswer {
  productVariants: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: { id: string }[] };
}

/**
 * Ids (gid://shopify/ProductVariant/N) of the variants updated after `since`: Shopify moves a
 * variant's updated_at when the variant is written (price, compare-at, SKU) or created, not when
 * its inventory changes. First `productVariantsCount` over the same search: null (the caller reads
 * in full) when the version cannot count (before 2024-10) or more than `limit` changed, without a
 * page read. Then pages in id order, each sized to the variants the count leaves and to the
 * query cost, learnt from Shopify's answers as the catalog pull does; null too if the pages find
 * more than `limit` (variants changed meanwhile, or the count was only a lower bound).
 */
export async function readChangedVariants(
  port: ShopifyPort,
  options: { since: Date; limit: number },
): Promise<Set<string> | null> {
  const query = updatedSince(options.since);
  const counted = await countChanged(port, query);
  if (!counted || counted.count > options.limit) return null;
  // AT_LEAST: Shopify stopped counting at a limit of its own, so the count leaves no bound.
  const total = counted.precision === "EXACT" ? counted.count : null;
  const ids = new Set<string>();
  let perNode = NODE_COST;
  let maxCost = MAX_QUERY_COST;
  let after: string | null = null;
  for (;;) {
    // A page is charged its requested cost before it runs: the last one asks for the variants left,
    // one more so a variant changed since the count still shows the next page.
    const fits = Math.max(1, Math.min(MAX_PAGE, Math.floor((maxCost - CONNECTION_COST) / perNode)));
    const left = total === null ? null : total - ids.size;
    const first = left !== null && left >= 0 && left < fits ? left + 1 : fits;
    const answer: GraphqlResponse<PageAnswer> = await port.execute<PageAnswer>(
      CHANGED_VARIANTS_QUERY,
      { first, after, query },
      { expectedCost: CONNECTION_COST + first * perNode },
    );
    // A store that costs more than the rules say: learn the cost and the cap, ask the same page smaller.
    const tooCostly = answer.errors.find((error) => error.code === "MAX_COST_EXCEEDED");
    if (tooCostly && first > 1) {
      if (tooCostly.maxCost !== undefined) maxCost = tooCostly.maxCost;
      perNode = Math.max(
        perNode * 1.5,
        tooCostly.cost !== undefined ? (tooCostly.cost - CONNECTION_COST) / first : 0,
      );
      continue;
    }
    if (answer.errors.length > 0 || !answer.data) {
      const reason = answer.errors.map((error) => error.message).join("; ") || "no data";
      throw new ShopifyError(`Shopify rejected the changed-variants page: ${reason}`, "graphql");
    }
    if (answer.cost.requested !== null)
      perNode = Math.max(NODE_COST, (answer.cost.requested - CONNECTION_COST) / first);
    const page = answer.data.productVariants;
    for (const node of page.nodes) ids.add(node.id);
    if (ids.size > options.limit) return null;
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return ids;
    after = page.pageInfo.endCursor;
  }
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

/** Null when the served version has no `productVariantsCount` (before 2024-10) or answers none. */
async function countChanged(port: ShopifyPort, query: string) {
  const answer = await port.execute<CountAnswer>(CHANGED_VARIANTS_COUNT_QUERY, { query });
  if (answer.errors.length > 0) {
    if (answer.errors.every((error) => error.code === "undefinedField")) return null;
    const reason = answer.errors.map((error) => error.message).join("; ");
    throw new ShopifyError(`Shopify rejected the changed-variants count: ${reason}`, "graphql");
  }
  return answer.data?.productVariantsCount ?? null;
}
