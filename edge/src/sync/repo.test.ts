import { describe, expect, it } from "vitest";
import { createTestApp } from "../../testing/helpers.ts";
import { registerSubscriber } from "../../testing/mapping-fixtures.ts";
import { createSyncRepo } from "./repo.ts";

describe("targets", () => {
  it("reads every mapping of a store larger than a page, oldest first, each once", async () => {
    const app = await createTestApp();
    const { userId } = await registerSubscriber(app);
    const other = await registerSubscriber(app);
    // 12,001 mappings over two creation times (ties ordered by id), and another user's.
    const rows = Array.from({ length: 12_001 }, (_, index) => ({
      i: `m-${String(index).padStart(6, "0")}`,
      c: index % 2 === 0 ? "2026-11-01T00:00:00.000Z" : "2026-10-01T00:00:00.000Z",
    }));
    await app.db.execute({
      sql: `INSERT INTO mappings (id, user_id, shopify_variant_id, shopify_sku, acumatica_id, acumatica_sku, mapping_type, created_at, updated_at)
            SELECT value ->> 'i', ?, 'gid://shopify/ProductVariant/' || key, 'S-' || key, 'A-' || key, 'I-' || key, 'exact-sku', value ->> 'c', value ->> 'c'
            FROM json_each(?)`,
      args: [userId, JSON.stringify(rows)],
    });
    await app.db.execute({
      sql: `INSERT INTO mappings (id, user_id, shopify_variant_id, shopify_sku, acumatica_id, acumatica_sku, mapping_type, created_at, updated_at)
            VALUES ('theirs', ?, 'v', 's', 'a', 'i', 'exact-sku', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
      args: [other.userId],
    });

    const targets = await createSyncRepo(app.db).targets(userId, "all");

    const expected = [...rows]
      .sort((a, b) => a.c.localeCompare(b.c) || a.i.localeCompare(b.i))
      .map((row) => row.i);
    expect(targets.map((target) => target.mappingId)).toEqual(expected);
    expect(targets[0]).toEqual({
      mappingId: "m-000001",
      shopifyVariantId: "gid://shopify/ProductVariant/1",
      shopifySku: "S-1",
      acumaticaId: "A-1",
      acumaticaSku: "I-1",
    });
  });
});
