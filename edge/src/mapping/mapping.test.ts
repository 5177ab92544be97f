import { describe, expect, it } from "vitest";
import { createTestApp, failure } from "../../testing/helpers.ts";
import {
  deleteItem,
  deleteVariant,
  insertItem,
  insertVariant,
  registerSubscriber,
} from "../../testing/mapping-fixtures.ts";

describe("manual mapping", () => {
  it("maps a variant to an ERP item and puts it at the top of the history", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    const older = await api.call("manualMap", {
      body: {
        shopifyVariantId: (await insertVariant(app.db, userId)).variantId,
        acumaticaProductId: (await insertItem(app.db, userId)).acumaticaId,
      },
    });
    app.clock.advance(1000);
    const variant = await insertVariant(app.db, userId, { sku: "SKU-1" });
    const item = await insertItem(app.db, userId, { sku: "ABC-1" });

    const mapping = await api.call("manualMap", {
      body: { shopifyVariantId: variant.variantId, acumaticaProductId: item.acumaticaId },
    });

    expect(mapping).toMatchObject({
      shopifyDetails: { _id: variant.id, variantId: variant.variantId, sku: "SKU-1", missing: false },
      acumaticaDetails: { _id: item.id, acumaticaId: item.acumaticaId, sku: "ABC-1", missing: false },
      mappingType: "manual",
      updatedAt: "2026-11-21T10:00:01.000Z",
      lastSyncedAt: null,
    });
    const history = await api.call("mappingHistory", { query: { page: "1", limit: "10" } });
    expect(history.total).toBe(2);
    expect(history.mappings.map((m) => m._id)).toEqual([mapping._id, older._id]);
  });

  it("answers 409 naming the existing mapping when the variant is already mapped", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    const variant = await insertVariant(app.db, userId, { sku: "SKU-1" });
    await api.call("manualMap", {
      body: {
        shopifyVariantId: variant.variantId,
        acumaticaProductId: (await insertItem(app.db, userId, { sku: "ABC-1" })).acumaticaId,
      },
    });

    const error = await failure(
      api.call("manualMap", {
        body: {
          shopifyVariantId: variant.variantId,
          acumaticaProductId: (await insertItem(app.db, userId, { sku: "XYZ-9" })).acumaticaId,
        },
      }),
    );
    expect(error.status).toBe(409);
    expect(error.message).toBe("Cannot save mapping: variant SKU-1 is already mapped to ABC-1");
  });

  it("answers 409 naming the existing mapping when the ERP item is already mapped", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    const item = await insertItem(app.db, userId, { sku: "ABC-1" });
    await api.call("manualMap", {
      body: {
        shopifyVariantId: (await insertVariant(app.db, userId, { sku: "SKU-1" })).variantId,
        acumaticaProductId: item.acumaticaId,
      },
    });

    const error = await failure(
      api.call("manualMap", {
        body: {
          shopifyVariantId: (await insertVariant(app.db, userId, { sku: "SKU-2" })).variantId,
          acumaticaProductId: item.acumaticaId,
        },
      }),
    );
    expect(error.status).toBe(409);
    expect(error.message).toBe("Cannot save mapping: Acumatica item ABC-1 is already mapped to SKU-1");
  });

  it("answers 404 for ids that are not in the user's catalogs, including another user's", async () => {
    const app = await createTestApp();
    const me = await registerSubscriber(app);
    const other = await registerSubscriber(app);
    const mine = await insertItem(app.db, me.userId);
    const theirs = await insertVariant(app.db, other.userId);

    const unknown = await failure(
      me.api.call("manualMap", {
        body: { shopifyVariantId: "gid://shopify/ProductVariant/1", acumaticaProductId: mine.acumaticaId },
      }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.message).toBe(
      "Shopify variant gid://shopify/ProductVariant/1 was not found. Fetch the Shopify products and try again.",
    );
    const foreign = await failure(
      me.api.call("manualMap", {
        body: { shopifyVariantId: theirs.variantId, acumaticaProductId: mine.acumaticaId },
      }),
    );
    expect(foreign.status).toBe(404);
    const item = await failure(
      me.api.call("manualMap", {
        body: {
          shopifyVariantId: (await insertVariant(app.db, me.userId)).variantId,
          acumaticaProductId: "NOPE",
        },
      }),
    );
    expect(item.status).toBe(404);
    expect(item.message).toBe(
      "Acumatica item NOPE was not found. Fetch the Acumatica products and try again.",
    );
  });

  it.each([
    [{ acumaticaProductId: "A" }, "shopifyVariantId is required"],
    [{ shopifyVariantId: "  ", acumaticaProductId: "A" }, "shopifyVariantId is required"],
    [{ shopifyVariantId: "v", acumaticaProductId: 7 }, "acumaticaProductId is required"],
  ])("answers 400 for %j", async (body, message) => {
    const app = await createTestApp();
    const { token } = await registerSubscriber(app);
    const response = await app.request("/api/mapping/manual", { token, body });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(message);
  });

  it("needs an active subscription", async () => {
    const app = await createTestApp();
    const { token } = await app.registerUser();
    const response = await app.request("/api/mapping/history", { token });
    expect(response.status).toBe(403);
    expect((await response.json()).message).toBe("A subscription is required to access this service.");
  });
});

describe("updateMapping", () => {
  it("replaces the pair, keeps the id and becomes a manual mapping", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    const variant = await insertVariant(app.db, userId, { sku: "SKU-1" });
    const mapping = await api.call("manualMap", {
      body: {
        shopifyVariantId: variant.variantId,
        acumaticaProductId: (await insertItem(app.db, userId)).acumaticaId,
      },
    });
    const replacement = await insertItem(app.db, userId, { sku: "NEW-1" });
    app.clock.advance(60_000);

    const updated = await api.call("updateMapping", {
      params: { id: mapping._id },
      body: { shopifyVariantId: variant.variantId, acumaticaProductId: replacement.acumaticaId },
    });

    expect(updated).toMatchObject({
      _id: mapping._id,
      acumaticaDetails: { sku: "NEW-1" },
      mappingType: "manual",
      updatedAt: "2026-11-21T10:01:00.000Z",
    });
    expect((await api.call("unmapped")).acumatica.map((row) => row._id)).toHaveLength(1);
  });

  it("answers 409 when the new variant belongs to another mapping", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    const taken = await insertVariant(app.db, userId, { sku: "TAKEN" });
    await api.call("manualMap", {
      body: {
        shopifyVariantId: taken.variantId,
        acumaticaProductId: (await insertItem(app.db, userId, { sku: "OWNER" })).acumaticaId,
      },
    });
    const item = await insertItem(app.db, userId);
    const mapping = await api.call("manualMap", {
      body: {
        shopifyVariantId: (await insertVariant(app.db, userId)).variantId,
        acumaticaProductId: item.acumaticaId,
      },
    });

    const error = await failure(
      api.call("updateMapping", {
        params: { id: mapping._id },
        body: { shopifyVariantId: taken.variantId, acumaticaProductId: item.acumaticaId },
      }),
    );
    expect(error.status).toBe(409);
    expect(error.message).toBe("Cannot save mapping: variant TAKEN is already mapped to OWNER");
  });

  it("answers 404 for another user's mapping and leaves it alone", async () => {
    const app = await createTestApp();
    const owner = await registerSubscriber(app);
    const intruder = await registerSubscriber(app);
    const variant = await insertVariant(app.db, owner.userId);
    const item = await insertItem(app.db, owner.userId);
    const mapping = await owner.api.call("manualMap", {
      body: { shopifyVariantId: variant.variantId, acumaticaProductId: item.acumaticaId },
    });

    const error = await failure(
      intruder.api.call("updateMapping", {
        params: { id: mapping._id },
        body: { shopifyVariantId: variant.variantId, acumaticaProductId: item.acumaticaId },
      }),
    );
    expect(error.status).toBe(404);
    expect((await failure(intruder.api.call("deleteMapping", { params: { id: mapping._id } }))).status).toBe(
      404,
    );
    expect((await owner.api.call("mappingHistory")).total).toBe(1);
  });
});

describe("deleteMapping", () => {
  it("removes the mapping, frees both products and answers 404 the second time", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    const mapping = await api.call("manualMap", {
      body: {
        shopifyVariantId: (await insertVariant(app.db, userId)).variantId,
        acumaticaProductId: (await insertItem(app.db, userId)).acumaticaId,
      },
    });

    expect(await api.call("deleteMapping", { params: { id: mapping._id } })).toEqual({ ok: true });
    expect((await api.call("mappingHistory")).total).toBe(0);
    expect(await api.call("unmapped")).toMatchObject({ shopify: [{}], acumatica: [{}] });
    expect((await failure(api.call("deleteMapping", { params: { id: mapping._id } }))).status).toBe(404);
  });
});

describe("broken mappings", () => {
  it("stays visible with its SKU snapshot and missing: true when a pull drops a product", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    const variant = await insertVariant(app.db, userId, { sku: "GONE-1" });
    const item = await insertItem(app.db, userId, { sku: "ERP-GONE" });
    const mapping = await api.call("manualMap", {
      body: { shopifyVariantId: variant.variantId, acumaticaProductId: item.acumaticaId },
    });

    await deleteVariant(app.db, userId, variant.variantId);
    await deleteItem(app.db, userId, item.acumaticaId);

    const [shown] = (await api.call("mappingHistory")).mappings;
    expect(shown).toMatchObject({
      _id: mapping._id,
      shopifyDetails: { _id: null, variantId: variant.variantId, sku: "GONE-1", missing: true },
      acumaticaDetails: { _id: null, acumaticaId: item.acumaticaId, sku: "ERP-GONE", missing: true },
    });
    expect((await api.call("mappingHistory", { query: { search: "gone" } })).total).toBe(1);
    expect(
      (await api.call("mappingsByIds", { body: { mappingIds: [mapping._id] } })).mappings[0]?.shopifyDetails
        .missing,
    ).toBe(true);
  });

  it("can be repointed at a new ERP item while keeping its vanished variant", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    const variant = await insertVariant(app.db, userId, { sku: "GONE-1" });
    const mapping = await api.call("manualMap", {
      body: {
        shopifyVariantId: variant.variantId,
        acumaticaProductId: (await insertItem(app.db, userId)).acumaticaId,
      },
    });
    await deleteVariant(app.db, userId, variant.variantId);
    const item = await insertItem(app.db, userId, { sku: "ERP-NEW" });

    const updated = await api.call("updateMapping", {
      params: { id: mapping._id },
      body: { shopifyVariantId: variant.variantId, acumaticaProductId: item.acumaticaId },
    });
    expect(updated.shopifyDetails).toMatchObject({ sku: "GONE-1", missing: true });
    expect(updated.acumaticaDetails).toMatchObject({ sku: "ERP-NEW", missing: false });
  });
});

describe("mapping lists", () => {
  async function seedMappings(
    app: Awaited<ReturnType<typeof createTestApp>>,
    userId: string,
    api: ReturnType<typeof app.client>,
    count: number,
  ) {
    const ids: string[] = [];
    for (let index = 1; index <= count; index += 1) {
      const variant = await insertVariant(app.db, userId, { sku: `SHOP-${String(index).padStart(3, "0")}` });
      const item = await insertItem(app.db, userId, { sku: `ERP-${String(index).padStart(3, "0")}` });
      ids.push(
        (
          await api.call("manualMap", {
            body: { shopifyVariantId: variant.variantId, acumaticaProductId: item.acumaticaId },
          })
        )._id,
      );
      app.clock.advance(1000);
    }
    return ids;
  }

  it("pages the history newest first", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    const ids = await seedMappings(app, userId, api, 12);

    const last = await api.call("mappingHistory", { query: { page: "3", limit: "5" } });
    expect(last).toMatchObject({ total: 12, page: 3, totalPages: 3 });
    expect(last.mappings.map((m) => m._id)).toEqual([ids[1], ids[0]]);
    expect((await api.call("mappingHistory", { query: { page: "1", limit: "5" } })).mappings[0]?._id).toBe(
      ids[11],
    );
  });

  it("searches either SKU, case-insensitively, and treats % literally", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    await seedMappings(app, userId, api, 12);

    const byShopify = await api.call("mappingHistory", { query: { search: "shop-01" } });
    expect(byShopify.mappings.map((m) => m.shopifyDetails.sku)).toEqual(["SHOP-012", "SHOP-011", "SHOP-010"]);
    const byErp = await api.call("mappingHistory", { query: { search: "ERP-007" } });
    expect(byErp.mappings.map((m) => m.acumaticaDetails.sku)).toEqual(["ERP-007"]);
    expect((await api.call("mappingHistory", { query: { search: "%" } })).total).toBe(0);
  });

  it("answers 400 for a page that is not a number", async () => {
    const app = await createTestApp();
    const { token } = await registerSubscriber(app);
    const response = await app.request("/api/mapping/history?page=abc", { token });
    expect(response.status).toBe(400);
  });

  it("gives the selector 20 at a time with hasMore", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    await seedMappings(app, userId, api, 23);

    const first = await api.call("mappingSelector", { query: { page: "1" } });
    expect(first.mappings).toHaveLength(20);
    expect(first).toMatchObject({ page: 1, hasMore: true });
    const second = await api.call("mappingSelector", { query: { page: "2" } });
    expect(second.mappings).toHaveLength(3);
    expect(second.hasMore).toBe(false);
    const searched = await api.call("mappingSelector", { query: { page: "1", search: "erp-02" } });
    expect(searched.mappings.map((m) => m.acumaticaDetails.sku)).toEqual([
      "ERP-023",
      "ERP-022",
      "ERP-021",
      "ERP-020",
    ]);
    expect(searched.hasMore).toBe(false);
  });

  it("answers by-ids in the order asked, leaving out ids that are not the caller's", async () => {
    const app = await createTestApp();
    const me = await registerSubscriber(app);
    const other = await registerSubscriber(app);
    const mine = await seedMappings(app, me.userId, me.api, 3);
    const [theirs] = await seedMappings(app, other.userId, other.api, 1);

    const answer = await me.api.call("mappingsByIds", {
      body: { mappingIds: [mine[2]!, theirs!, mine[0]!, "missing"] },
    });
    expect(answer.mappings.map((m) => m._id)).toEqual([mine[2], mine[0]]);
  });

  it("lists unmapped products of both sides", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    await seedMappings(app, userId, api, 2);
    const lonelyVariant = await insertVariant(app.db, userId, { sku: "ALONE-S" });
    const lonelyItem = await insertItem(app.db, userId, { sku: "ALONE-E" });

    expect(await api.call("unmapped")).toEqual({
      shopify: [{ _id: lonelyVariant.id, variantId: lonelyVariant.variantId, sku: "ALONE-S" }],
      acumatica: [{ _id: lonelyItem.id, acumaticaId: lonelyItem.acumaticaId, sku: "ALONE-E" }],
      shopifyTotal: 1,
      acumaticaTotal: 1,
      shopifyOffset: 0,
      acumaticaOffset: 0,
      limit: 10,
    });
  });
});
