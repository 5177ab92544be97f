import { type GraphqlResponse, ShopifyError } from "./graphql-client.ts";
import type { ShopifyPort } from "./port.ts";

/** Shopify's single-query cap until an answer names another, and its page cap. */
const MAX_QUERY_COST = 1_000;
const MAX_PAGE = 250;
/** A connection's own points (the documented rules). */
const CONNECTION_COST = 2;

export interface ConnectionPage<N> {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: N[];
}

/**
 * Reads a connection (`$first`, `$after`) page by page, each page sized to the query cost and to
 * what is left. Shopify charges a page its requested cost before it runs, so the last page asks for
 * the nodes left (`left`), one more so a node added since the count still shows the next page. The
 * points per node start at the documented rules and are learnt from each answer's
 * `requestedQueryCost`; a page refused with MAX_COST_EXCEEDED is asked again smaller, the store's
 * cap learnt. `onPage` is told each page's nodes and the cursor after it (null at the end), and
 * answers false to stop.
 */
export async function readCostSizedPages<N, T>(
  execute: ShopifyPort["execute"],
  read: {
    query: string;
    /** The query's own variables (`first` and `after` are added). */
    variables: Record<string, unknown>;
    /** The connection's page in an answer. */
    pageOf: (data: T) => ConnectionPage<N>;
    /** Points per node before an answer says. */
    perNode: number;
    /** The bucket's size, when known: no page may ask for more than the bucket holds. */
    bucketSize?: () => number | null;
    /** Where an earlier read stopped. */
    after?: string | null;
    /** Nodes not read yet, when a count says (null: unknown). */
    left: () => number | null;
    /** What the page is, in the error Shopify's refusal becomes ("the variant page"). */
    what: string;
    onPage: (nodes: N[], after: string | null) => Promise<boolean | undefined>;
  },
): Promise<void> {
  let perNode = read.perNode;
  let maxCost = MAX_QUERY_COST;
  let after = read.after ?? null;
  for (;;) {
    const limit = Math.min(maxCost, read.bucketSize?.() ?? maxCost);
    const fits = Math.max(1, Math.min(MAX_PAGE, Math.floor((limit - CONNECTION_COST) / perNode)));
    const left = read.left();
    const first = left !== null && left >= 0 && left < fits ? left + 1 : fits;
    const answer: GraphqlResponse<T> = await execute<T>(
      read.query,
      { ...read.variables, first, after },
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
      throw new ShopifyError(`Shopify rejected ${read.what}: ${reason}`, "graphql");
    }
    if (answer.cost.requested !== null)
      perNode = Math.max(1, (answer.cost.requested - CONNECTION_COST) / first);
    const page = read.pageOf(answer.data);
    const next = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    if ((await read.onPage(page.nodes, next)) === false || !next) return;
    after = next;
  }
}

/** A `productVariantsCount` answer; null when the served version has none (before 2024-10) or answers none. */
export async function countVariants(
  execute: ShopifyPort["execute"],
  count: { query: string; variables?: Record<string, unknown>; what: string },
): Promise<{ count: number; precision: string } | null> {
  const answer = await execute<{ productVariantsCount: { count: number; precision: string } | null }>(
    count.query,
    count.variables,
  );
  if (answer.errors.length > 0) {
    if (answer.errors.every((error) => error.code === "undefinedField")) return null;
    const reason = answer.errors.map((error) => error.message).join("; ");
    throw new ShopifyError(`Shopify rejected ${count.what}: ${reason}`, "graphql");
  }
  return answer.data?.productVariantsCount ?? null;
}
