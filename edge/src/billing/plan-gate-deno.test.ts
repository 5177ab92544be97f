import { createApiClient } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { subscribeThroughCheckout } from "../../../e2e/support/subscribe.ts";
import { type DenoWorld, startDenoWorld } from "../../testing/deno-harness.ts";
import { insertItem, insertVariant } from "../../testing/mapping-fixtures.ts";
import { openDatabase } from "../db/client.ts";

let world: DenoWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("the plan's number of mapped products under the real server", () => {
  it("lets exactly ten of thirty manual mappings racing over two instances take a Starter subscriber's last ten places", async () => {
    world = await startDenoWorld({ size: 20 });
    const [a, b] = [await world.startEdge(), await world.startEdge()];
    const anonymous = createApiClient({ baseUrl: `${a.origin}/api`, getToken: () => null });
    const { token, user } = await anonymous.call("register", {
      body: { name: "Plan Racer", email: `racer-${crypto.randomUUID()}@example.com`, password: "Passw0rd" },
    });
    const api = a.api(token);
    const subscription = await subscribeThroughCheckout(api, world.sandbox.origin, { plan: "Starter" });
    expect(subscription.limits.maxMappings).toBe(500);

    // 490 mappings already, and thirty free pairs: set up through the instances' shared database file.
    const db = openDatabase(`file:${world.dataDir}/stockbridge.db`);
    await db.execute({
      sql: `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 490)
            INSERT INTO mappings (id, user_id, shopify_variant_id, shopify_sku, acumatica_id, acumatica_sku, mapping_type, created_at, updated_at)
            SELECT 'old-' || i, ?, 'gid://shopify/ProductVariant/old-' || i, 'OLD-' || i, 'OLD-' || i, 'OLD-' || i, 'manual',
                   '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n`,
      args: [user._id],
    });
    const pairs = [];
    for (let index = 0; index < 30; index += 1) {
      const variant = await insertVariant(db, user._id, { sku: `RACE-${index}` });
      const item = await insertItem(db, user._id, { sku: `RACE-${index}` });
      pairs.push({ shopifyVariantId: variant.variantId, acumaticaProductId: item.acumaticaId });
    }
    db.close();
    // Connections opened beforehand, so the thirty requests arrive together rather than one
    // handshake apart.
    await Promise.all(
      pairs.map((_, index) => fetch(`${(index % 2 === 0 ? a : b).origin}/api/health`).then((r) => r.text())),
    );

    const answers = await Promise.all(
      pairs.map(async (body, index) => {
        const response = await fetch(`${(index % 2 === 0 ? a : b).origin}/api/mapping/manual`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
        return {
          status: response.status,
          body: (await response.json()) as { code?: string; message?: string },
        };
      }),
    );

    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(20);
    for (const answer of refused)
      expect(answer).toEqual({
        status: 403,
        body: {
          code: "PLAN_LIMIT",
          message:
            "Your Starter plan includes up to 500 mapped products (you have 500); upgrade to Growth for up to 5,000 mapped products.",
        },
      });
    expect((await api.call("mappingHistory")).total).toBe(500);
  });
});
