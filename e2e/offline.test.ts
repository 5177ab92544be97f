import { MESSAGES } from "@stockbridge/shared";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { autoMap, prepareCatalogUser } from "./support/catalog-setup.ts";
import { browserPerFile } from "./support/fixtures.ts";
import { installServiceWorker } from "./support/service-worker.ts";
import { apiClient, expectToast, openSignedInSession } from "./support/session.ts";

const browser = browserPerFile();

/** Rows of each mirror table and whether each list's first fill finished (IndexedDB `stockbridge`). */
function mirrorContents(
  page: Page,
): Promise<{ rows: Record<string, number>; complete: string[]; outbox: number }> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open("stockbridge");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const names = [
            "shopifyProducts",
            "acumaticaProducts",
            "mappings",
            "unmapped",
            "schedules",
            "history",
          ];
          const tx = db.transaction([...names, "mirrorState", "outbox"]);
          const rows: Record<string, number> = {};
          for (const name of names) {
            const count = tx.objectStore(name).count();
            count.onsuccess = () => {
              rows[name] = count.result;
            };
          }
          let outbox = 0;
          const queued = tx.objectStore("outbox").count();
          queued.onsuccess = () => {
            outbox = queued.result;
          };
          const states = tx.objectStore("mirrorState").getAll();
          tx.oncomplete = () => {
            db.close();
            const complete = (states.result as { list: string; complete: boolean }[])
              .filter((state) => state.complete)
              .map((state) => state.list)
              .sort();
            resolve({ rows, complete, outbox });
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

const ALL_LISTS = ["acumatica", "history", "mappings", "schedules", "shopify", "unmapped"];

function skusShown(page: Page): Promise<string[]> {
  return page
    .getByRole("table", { name: "Shopify products" })
    .locator("tbody tr td:nth-child(2)")
    .allTextContents();
}

describe("offline-first lists and the outbox", () => {
  it("keeps searchable, sortable, paged lists through offline reloads, and sends an offline delete on reconnect", async () => {
    const appUrl = inject("appUrl");
    const session = await openSignedInSession(browser(), appUrl, { name: "Stockroom Sam" });
    try {
      const { page, context } = session;
      const api = apiClient(appUrl, session.token);
      await prepareCatalogUser(api, inject("sandboxUrl"));
      await autoMap(api);
      // What the server answers for a search, sorted by price, second page of 10.
      const expected = await api.call("shopifyProducts", {
        query: { search: "sku-00", sortBy: "price", sortDirection: "asc", page: "2", limit: "10" },
      });
      expect(expected.products).toHaveLength(10);

      await page.goto("/products/shopify");
      await installServiceWorker(page);
      await expect
        .poll(async () => (await mirrorContents(page)).complete, { timeout: 30_000 })
        .toEqual(ALL_LISTS);
      const filled = await mirrorContents(page);
      expect(filled.rows.shopifyProducts).toBe((await api.call("shopifyProducts")).total);

      await context.setOffline(true);
      await page.reload();
      await page.reload();
      await page.getByRole("heading", { name: "Shopify Products", level: 1 }).waitFor();
      await page.getByRole("searchbox", { name: "Search Shopify products" }).fill("SKU-00");
      await page.getByText(`1–10 of ${expected.total}`, { exact: true }).waitFor();
      const priceHeader = page
        .getByRole("table", { name: "Shopify products" })
        .locator("thead th", { hasText: "Price" })
        .first();
      await priceHeader.getByRole("button").click();
      await expect.poll(() => priceHeader.getAttribute("aria-sort")).toBe("ascending");
      await page.getByRole("button", { name: "Next page" }).click();
      await page.getByText(`11–20 of ${expected.total}`, { exact: true }).waitFor();
      await expect.poll(() => skusShown(page)).toEqual(expected.products.map((product) => product.sku));

      // An offline delete: gone at once, still gone after a reload offline, sent on reconnect.
      const { mappings } = await api.call("mappingHistory", { query: { limit: "1" } });
      const doomed = mappings[0];
      if (!doomed) throw new Error("auto mapping made no mapping");
      await page.goto("/mapping");
      const table = page.getByRole("table", { name: "Mappings" });
      const row = table.locator("tbody tr", { hasText: doomed.shopifyDetails.sku }).first();
      await row.getByRole("button", { name: /^Delete/ }).click();
      await page
        .getByRole("dialog", { name: "Delete Mapping" })
        .getByRole("button", { name: "Delete" })
        .click();
      await expect.poll(async () => (await mirrorContents(page)).outbox).toBe(1);
      await page.reload();
      await table.waitFor();
      await expect(table.locator("tbody tr", { hasText: doomed.shopifyDetails.sku }).count()).resolves.toBe(
        0,
      );
      expect((await api.call("mappingsByIds", { body: { mappingIds: [doomed._id] } })).mappings).toHaveLength(
        1,
      );

      await context.setOffline(false);
      await expectToast(page, "1 offline edit sent");
      await expect.poll(async () => (await mirrorContents(page)).outbox).toBe(0);
      expect((await api.call("mappingsByIds", { body: { mappingIds: [doomed._id] } })).mappings).toEqual([]);

      // A pull needs the server: offline its button is disabled and says why.
      await api.call("testShopify");
      await page.goto("/products/shopify");
      const pull = page.getByRole("button", { name: "Get Products" });
      await pull.waitFor();
      await context.setOffline(true);
      await expect.poll(() => pull.isDisabled()).toBe(true);
      await expect(pull.getAttribute("title")).resolves.toBe(MESSAGES.generic.offline);
      await context.setOffline(false);

      // Signing out empties the mirror and the outbox.
      await page.getByRole("button", { name: "Account menu" }).click();
      await page.getByRole("menuitem", { name: "Logout" }).click();
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      const after = await mirrorContents(page);
      expect(Object.values(after.rows).every((count) => count === 0)).toBe(true);
      expect(after).toMatchObject({ complete: [], outbox: 0 });
    } finally {
      await session.close();
    }
  });
});
