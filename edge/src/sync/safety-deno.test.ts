import { join } from "node:path";
import { SANDBOX_DEMO, type SyncJobResult } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type DenoEdge, type DenoWorld, startDenoWorld, waitFor } from "../../testing/deno-harness.ts";
import { openDatabase } from "../db/client.ts";

let world: DenoWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** One POST to the edge, answered as status and body (never thrown, so every answer is looked at). */
async function post(edge: DenoEdge, token: string, path: string) {
  const response = await fetch(`${edge.origin}/api${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as { data?: unknown; message?: string } };
}

async function shopifyMutations(w: DenoWorld): Promise<number> {
  const response = await fetch(`${w.sandbox.origin}/__control/state`);
  return ((await response.json()) as { shopify: { mutations: number } }).shopify.mutations;
}

/** The products of the given variants, read from the sandbox's Shopify like any app would. */
async function productsOf(w: DenoWorld, variantIds: string[]): Promise<Set<string>> {
  const response = await fetch(
    `${w.sandbox.origin}/shopify/${SANDBOX_DEMO.shopify.storeName}/admin/api/2025-04/graphql.json`,
    {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Shopify-Access-Token": SANDBOX_DEMO.shopify.accessToken,
      },
      body: JSON.stringify({
        query: "query($ids: [ID!]!) { nodes(ids: $ids) { ... on ProductVariant { product { id } } } }",
        variables: { ids: variantIds },
      }),
    },
  );
  const body = (await response.json()) as { data: { nodes: { product: { id: string } }[] } };
  return new Set(body.data.nodes.map((node) => node.product.id));
}

// Real processes: two edges under Deno on one database file, approvals sent at the same instant.
describe("approving a held run under parallel requests", () => {
  it("applies the plan exactly once when ten approvals arrive at once on two instances", async () => {
    world = await startDenoWorld();
    const [a, b] = [await world.startEdge(), await world.startEdge()];
    const { token, api, mappings } = await world.readyUser(a);
    // Any price move over 1 % holds the run: the seeded ERP prices drift from Shopify's by up to 20 %.
    await api.call("saveSafetyLimits", { body: { maxPriceChangePercent: 1, maxZeroedPercent: 20 } });
    const { job } = await api.call("syncMappings", {
      body: { syncOptions: { price: true, quantity: false } },
    });
    const held = (await waitFor(api, job)).result as SyncJobResult;
    expect(held.holdReasons?.length).toBeGreaterThan(0);
    const plan = await api.call("executionPlan", {
      params: { id: held.historyId! },
      query: { page: "1", limit: "100" },
    });
    expect(plan.total).toBeGreaterThan(0);
    expect(plan.total).toBeLessThanOrEqual(100);
    const variantOf = new Map(mappings.map((mapping) => [mapping._id, mapping.shopifyDetails.variantId]));
    const products = await productsOf(
      world,
      plan.changes.map((change) => variantOf.get(change.mappingId)!),
    );
    const before = await shopifyMutations(world);

    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        post(index % 2 === 0 ? a : b, token, `/execution-history/${held.historyId}/approve`),
      ),
    );

    const won = answers.filter((answer) => answer.status === 200);
    expect(won).toHaveLength(1);
    for (const answer of answers.filter((candidate) => candidate !== won[0])) {
      expect(answer).toMatchObject({
        status: 409,
        body: { message: "Cannot approve: this run was already approved", code: "CONFLICT" },
      });
    }
    const approval = (won[0]!.body.data as { job: { _id: string } }).job;
    const done = await waitFor(api, { ...job, _id: approval._id });
    expect(done.status).toBe("succeeded");
    const after = await api.call("executionHistoryEntry", { params: { id: held.historyId! } });
    expect(after).toMatchObject({ status: "completed", failureCount: 0, review: { decision: "approved" } });
    // One productVariantsBulkUpdate per product of the plan: applied twice, there would be twice as many.
    expect((await shopifyMutations(world)) - before).toBe(products.size);
    const written = await api.call("executionPlan", {
      params: { id: held.historyId! },
      query: { page: "1", limit: "100" },
    });
    expect(written.changes.length).toBeGreaterThan(0);
    expect(written.changes.map((change) => change.result)).toEqual(written.changes.map(() => "written"));
    // One sync job held the run, one applied it: no approval started a second.
    const db = openDatabase(`file:${join(world.dataDir, "stockbridge.db")}`);
    const jobs = await db.execute("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'sync'");
    db.close();
    expect(Number(jobs.rows[0]?.n)).toBe(2);
  }, 180_000);
});
