import { TOKEN_STORAGE_KEY } from "@stockbridge/shared";
import { IDBKeyRange, indexedDB } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../../edge/testing/helpers.ts";
import { insertItem, insertVariant, registerSubscriber } from "../../../edge/testing/mapping-fixtures.ts";
import { createServices } from "../services.ts";
import { createMemoryStorage } from "./token-store.ts";

describe("the mirror's mappings search", () => {
  it("finds a mapping by the SKU it was saved with after the catalog renamed it, as the server does", async () => {
    const edge = await createTestApp();
    const { userId, api: server, token } = await registerSubscriber(edge);
    const variant = await insertVariant(edge.db, userId, { sku: "OLD-RENAMED-1" });
    const erpItem = await insertItem(edge.db, userId, { sku: "ERP-KEPT-1" });
    await server.call("manualMap", {
      body: { shopifyVariantId: variant.variantId, acumaticaProductId: erpItem.acumaticaId },
    });
    // A later pull renamed the variant's SKU: the mapping shows the new one, keeps the old snapshot.
    await edge.db.execute({
      sql: "UPDATE shopify_products SET sku = 'NEW-RENAMED-1', sku_key = 'new-renamed-1' WHERE id = ?",
      args: [variant.id],
    });

    const storage = createMemoryStorage();
    storage.setItem(TOKEN_STORAGE_KEY, token);
    const services = createServices({
      storage,
      appVersion: "test",
      apiBaseUrl: "http://app.test/api",
      database: { name: `mirror-search-${crypto.randomUUID()}`, indexedDB, IDBKeyRange },
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => edge.app.request(String(input), init),
    });
    await services.mirror.refresh("mappings");
    expect(await services.mirror.isComplete("mappings")).toBe(true);

    for (const search of ["old-renamed", "NEW-RENAMED", "erp-kept", "nothing-like-it"]) {
      const query = { search, page: "1", limit: "10" };
      const fromServer = await server.call("mappingHistory", { query });
      const fromMirror = await services.api.call("mappingHistory", { query });
      expect({ search, ...fromMirror }).toEqual({ search, ...fromServer });
    }
    const found = await services.api.call("mappingHistory", { query: { search: "old-renamed" } });
    expect(found.mappings.map((mapping) => mapping.shopifyDetails.sku)).toEqual(["NEW-RENAMED-1"]);
  });
});
