import { afterEach, describe, expect, it } from "vitest";
import { type SyncWorld, setErpQuantity, startSyncWorld } from "../../../testing/sync-harness.ts";
import { readErpChanges } from "./erp-changes.ts";
import type { AcumaticaApi } from "./session.ts";

let world: SyncWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The sandbox world on an endpoint version, with three items to change (two stock, one non-stock). */
async function open(apiVersion = "23.200.001", options: { fetch?: typeof fetch } = {}) {
  // Large enough to hold a service (a non-stock item).
  world = await startSyncWorld({ size: 100, ...options });
  const w = world;
  w.acumaticaLogin.apiVersion = apiVersion;
  const items = w.catalog.acumatica.items;
  // Plain seeded keys (not the pair that differs only in case).
  const stock = items.filter((item) => item.isStockItem && item.inventoryId.startsWith("SKU-"));
  const priced = stock[0]!;
  const moved = stock[1]!;
  const described = items.find((item) => !item.isStockItem)!;
  /** Runs `fn` in an Acumatica session of the world's connection, as the sync engine does. */
  const inSession = <T>(fn: (api: AcumaticaApi, version: string) => Promise<T>) =>
    w.syncConnectors.acumatica(w.userId, fn);
  const changes = (options: { since: Date; limit: number }) =>
    inSession((api, version) => readErpChanges(api, version, options));
  return { w, priced, moved, described, inSession, changes };
}

/** A price change and a description change through the API, and a stock movement in a warehouse. */
async function changeThree(world: Awaited<ReturnType<typeof open>>) {
  const { w, priced, moved, described, inSession } = world;
  await inSession(async (api) => {
    await api.put(
      "StockItem",
      {},
      {
        InventoryID: { value: priced.inventoryId },
        DefaultPrice: { value: priced.defaultPriceCents / 100 + 1 },
      },
    );
    await api.put(
      "NonStockItem",
      {},
      {
        InventoryID: { value: described.inventoryId },
        Description: { value: `${described.description} (new wording)` },
      },
    );
  });
  await setErpQuantity(w, moved, 7);
}

describe("readErpChanges", () => {
  it.each(["22.200.001", "23.200.001", "25.200.001"])(
    "answers exactly the items whose price, description or quantities changed since, on %s",
    async (apiVersion) => {
      const world = await open(apiVersion);
      const { w, priced, moved, described, changes } = world;
      const since = w.clock.now();
      w.advance(1_000);
      await changeThree(world);

      const changed = await changes({ since, limit: 100 });

      expect(changed).toEqual(
        new Set([priced.inventoryId, described.inventoryId, moved.inventoryId].map((id) => id.toUpperCase())),
      );
    },
  );

  it("answers an empty set when nothing changed after since", async () => {
    const world = await open();
    const { w, changes } = world;
    await changeThree(world);
    w.advance(1_000);

    expect(await changes({ since: w.clock.now(), limit: 100 })).toEqual(new Set());
  });

  it("answers null when more items changed than the limit: the caller reads in full", async () => {
    const world = await open();
    const { w, changes } = world;
    const since = w.clock.now();
    w.advance(1_000);
    await changeThree(world);

    expect(await changes({ since, limit: 2 })).toBeNull();
    expect(await changes({ since, limit: 3 })).toHaveProperty("size", 3);
  });

  it("stops reading at the first page that shows more changes than the limit", async () => {
    const lists: URL[] = [];
    const recording: typeof fetch = (input, init) => {
      const url = new URL(String(input));
      if (/\/(StockItem|NonStockItem)$/.test(url.pathname)) lists.push(url);
      return fetch(input, init);
    };
    const { w, changes } = await open("23.200.001", { fetch: recording });
    const stockItems = w.catalog.acumatica.items.filter((item) => item.isStockItem).length;

    // Every seeded item was last modified after this.
    expect(await changes({ since: new Date("2026-01-01T00:00:00Z"), limit: 5 })).toBeNull();

    // Pages of limit + 1; the second is needed when the first holds two keys that differ only in
    // case (DUP-ERP-1, Dup-Erp-1): one item to the caller. A full read would take them all.
    const stockPages = lists.filter((url) => url.pathname.endsWith("/StockItem"));
    expect(stockItems).toBeGreaterThan(30);
    expect(stockPages.length).toBeLessThanOrEqual(2);
    expect(stockPages.map((url) => url.searchParams.get("$top"))).toEqual(stockPages.map(() => "6"));
  });

  it("answers null on an endpoint version with no quantity delta source (20.200.001)", async () => {
    const world = await open("20.200.001");
    const { w, changes } = world;
    const since = w.clock.now();
    w.advance(1_000);
    await changeThree(world);

    expect(await changes({ since, limit: 100 })).toBeNull();
  });
});
