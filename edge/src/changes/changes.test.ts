import type { ApiClient } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type ConnectedApp, createConnectedApp } from "../../testing/connectors-harness.ts";
import { createTestApp, failure, type TestApp } from "../../testing/helpers.ts";
import { insertItem, insertVariant, registerSubscriber } from "../../testing/mapping-fixtures.ts";
import { createCatalogRepo } from "../catalog/repo.ts";
import { createSearchCache } from "../catalog/search-cache.ts";
import type { AcumaticaItemRow } from "../connectors/acumatica/catalog-reader.ts";

let connected: ConnectedApp | undefined;
afterEach(async () => {
  await connected?.close();
  connected = undefined;
});

type FeedName =
  | "shopifyProductChanges"
  | "acumaticaProductChanges"
  | "mappingChanges"
  | "unmappedChanges"
  | "scheduleChanges"
  | "historyChanges";

/** Reads a feed from `since` to its end, page by page, as the web app's mirror does. */
async function readToEnd(api: ApiClient, feed: FeedName, since = 0, limit = 1000) {
  const rows: ({ _id: string } & Record<string, unknown>)[] = [];
  const removedIds: string[] = [];
  let version = since;
  let pages = 0;
  for (;;) {
    const page = await api.call(feed, { query: { since: String(version), limit: String(limit) } });
    rows.push(...page.rows);
    removedIds.push(...page.removedIds);
    version = page.version;
    pages += 1;
    if (!page.hasMore) return { rows, removedIds, version, pages };
  }
}

function item(sku: string, priceCents: number): AcumaticaItemRow {
  return {
    acumaticaId: `item-${sku}`,
    sku,
    description: `Item ${sku}`,
    defaultPriceCents: priceCents,
    msrpCents: null,
    available: 1,
    onHand: 2,
    availableForShipping: 1,
    isStockItem: true,
    warehouses: [],
  };
}

/** Stages and swaps an Acumatica catalog for the user, as a pull does. */
async function pullAcumatica(app: TestApp, userId: string, rows: AcumaticaItemRow[], jobId: string) {
  const repo = createCatalogRepo(app.db, createSearchCache());
  let ids = 0;
  await repo.stageAcumatica({ jobId, userId, rows, newId: () => `${jobId}-${++ids}` });
  return repo.swap("acumatica", { jobId, userId, syncedAt: new Date().toISOString() });
}

describe("catalog change feeds", () => {
  it("sends a pulled catalog once in pages, then nothing after a pull that changes nothing", async () => {
    connected = await createConnectedApp({ size: 300 });
    await connected.connectShopify();
    const pull = async () => {
      const { job } = await connected!.api.call("syncShopifyProducts");
      expect((await connected!.waitForJob(job._id)).status).toBe("succeeded");
    };
    await pull();
    const listed = await connected.api.call("shopifyProducts", { query: { limit: "100" } });

    const first = await readToEnd(connected.api, "shopifyProductChanges", 0, 100);
    expect(first.pages).toBe(3);
    expect(first.rows).toHaveLength(listed.total);
    expect(new Set(first.rows.map((row) => row._id)).size).toBe(listed.total);
    const page = await connected.api.call("shopifyProductChanges", { query: { since: "0", limit: "1" } });
    expect(page.rows[0]).toMatchObject({ position: expect.any(Number), lastSynced: page.lastSynced });

    await pull();
    const after = await readToEnd(connected.api, "shopifyProductChanges", first.version);
    expect(after).toMatchObject({ rows: [], removedIds: [], pages: 1 });
  });

  it("sends only the rows a pull changed and the ids of the rows it removed", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    await pullAcumatica(app, userId, [item("A-1", 100), item("A-2", 200), item("A-3", 300)], "pull-1");
    const first = await readToEnd(api, "acumaticaProductChanges");
    expect(first.rows.map((row) => row.sku)).toEqual(["A-1", "A-2", "A-3"]);
    const removedId = first.rows.find((row) => row.sku === "A-3")?._id;

    await pullAcumatica(app, userId, [item("A-1", 100), item("A-2", 250)], "pull-2");
    const second = await readToEnd(api, "acumaticaProductChanges", first.version);
    expect(second.rows).toEqual([expect.objectContaining({ sku: "A-2", defaultPrice: 2.5 })]);
    expect(second.removedIds).toEqual([removedId]);
    expect(second.version).toBeGreaterThan(first.version);
  });

  it("answers 400 naming since for a version that is not a whole number", async () => {
    const app = await createTestApp();
    const { api } = await registerSubscriber(app);
    for (const since of ["abc", "-1", "1.5"]) {
      const error = await failure(api.call("shopifyProductChanges", { query: { since } }));
      expect(error.status).toBe(400);
      expect(error.errors?.[0]?.path).toBe("since");
    }
    const limit = await failure(api.call("historyChanges", { query: { limit: "0" } }));
    expect(limit.errors?.[0]).toMatchObject({ path: "limit", message: "limit must be at least 1" });
  });

  it("starts over from 0 with reset when since is ahead of every version", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    await pullAcumatica(app, userId, [item("R-1", 100)], "pull-r");
    const page = await api.call("acumaticaProductChanges", { query: { since: "999999999" } });
    expect(page).toMatchObject({ reset: true, rows: [expect.objectContaining({ sku: "R-1" })] });
  });
});

describe("mapping, unmapped, schedule and history change feeds", () => {
  it("follows a mapping made and deleted, and its products leaving and rejoining the unmapped list", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    const variant = await insertVariant(app.db, userId, { sku: "PAIR-1" });
    const erpItem = await insertItem(app.db, userId, { sku: "PAIR-1" });
    const unmapped = await readToEnd(api, "unmappedChanges");
    expect(unmapped.rows.map((row) => row._id).sort()).toEqual([variant.id, erpItem.id].sort());
    const mappingsBefore = await readToEnd(api, "mappingChanges");

    const mapping = await api.call("manualMap", {
      body: { shopifyVariantId: variant.variantId, acumaticaProductId: erpItem.acumaticaId },
    });
    const mapped = await readToEnd(api, "mappingChanges", mappingsBefore.version);
    expect(mapped.rows).toEqual([
      expect.objectContaining({
        _id: mapping._id,
        createdAt: expect.any(String),
        skuSnapshots: { shopify: "PAIR-1", acumatica: "PAIR-1" },
      }),
    ]);
    const left = await readToEnd(api, "unmappedChanges", unmapped.version);
    expect(left.rows).toEqual([]);
    expect(left.removedIds.sort()).toEqual([variant.id, erpItem.id].sort());

    await api.call("deleteMapping", { params: { id: mapping._id } });
    const deleted = await readToEnd(api, "mappingChanges", mapped.version);
    expect(deleted).toMatchObject({ rows: [], removedIds: [mapping._id] });
    const back = await readToEnd(api, "unmappedChanges", left.version);
    expect(back.rows.map((row) => row._id).sort()).toEqual([variant.id, erpItem.id].sort());
  });

  it("shows a mapping again when its variant leaves the catalog (now missing)", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    const variant = await insertVariant(app.db, userId, { sku: "GONE-1" });
    const erpItem = await insertItem(app.db, userId, { sku: "GONE-1" });
    const mapping = await api.call("manualMap", {
      body: { shopifyVariantId: variant.variantId, acumaticaProductId: erpItem.acumaticaId },
    });
    const before = await readToEnd(api, "mappingChanges");
    await app.db.execute({ sql: "DELETE FROM shopify_products WHERE id = ?", args: [variant.id] });
    const after = await readToEnd(api, "mappingChanges", before.version);
    expect(after.rows).toEqual([
      expect.objectContaining({
        _id: mapping._id,
        shopifyDetails: expect.objectContaining({ missing: true }),
      }),
    ]);
  });

  it("follows schedules created, switched and deleted, and history entries", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    const created = await api.call("createSchedule", {
      body: {
        name: "Nightly",
        schedule: { type: "daily", time: "02:00" },
        isFullSync: true,
        syncOptions: { price: true, quantity: false },
      },
    });
    const first = await readToEnd(api, "scheduleChanges");
    expect(first.rows).toEqual([
      expect.objectContaining({ _id: created._id, name: "Nightly", position: expect.any(Number) }),
    ]);
    await api.call("setScheduleStatus", { params: { id: created._id }, body: { status: "inactive" } });
    const switched = await readToEnd(api, "scheduleChanges", first.version);
    expect(switched.rows).toEqual([expect.objectContaining({ _id: created._id, status: "inactive" })]);
    await api.call("deleteSchedule", { params: { id: created._id } });
    expect(await readToEnd(api, "scheduleChanges", switched.version)).toMatchObject({
      rows: [],
      removedIds: [created._id],
    });

    await app.db.execute({
      sql: `INSERT INTO execution_history (id, user_id, trigger, start_date, end_date, success_count, failure_count, status)
            VALUES ('run-1', ?, 'manual', '2026-11-21T09:00:00.000Z', '2026-11-21T09:01:00.000Z', 3, 0, 'completed')`,
      args: [userId],
    });
    const history = await readToEnd(api, "historyChanges");
    expect(history.rows).toEqual([
      expect.objectContaining({ _id: "run-1", status: "completed", successCount: 3 }),
    ]);
    // A lease renewal is not a change anyone sees.
    await app.db.execute("UPDATE execution_history SET lease_until = 'x' WHERE id = 'run-1'");
    expect((await readToEnd(api, "historyChanges", history.version)).rows).toEqual([]);
  });

  it("never shows one user's rows or removals to another", async () => {
    const app = await createTestApp();
    const owner = await registerSubscriber(app);
    const other = await registerSubscriber(app);
    const variant = await insertVariant(app.db, owner.userId, { sku: "MINE-1" });
    await app.db.execute({ sql: "DELETE FROM shopify_products WHERE id = ?", args: [variant.id] });
    await insertVariant(app.db, owner.userId, { sku: "MINE-2" });
    expect((await readToEnd(owner.api, "shopifyProductChanges")).rows).toHaveLength(1);
    for (const feed of ["shopifyProductChanges", "unmappedChanges", "mappingChanges"] as const) {
      expect(await readToEnd(other.api, feed)).toMatchObject({ rows: [], removedIds: [] });
    }
  });
});
