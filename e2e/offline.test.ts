import { MESSAGES } from "@stockbridge/shared";
import type { Page, Route } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { autoMap, prepareCatalogUser } from "./support/catalog-setup.ts";
import { browserPerFile } from "./support/fixtures.ts";
import { goOffline, goOnline } from "./support/network.ts";
import { installServiceWorker } from "./support/service-worker.ts";
import { apiClient, expectToast, openSignedInSession, type SignedInSession } from "./support/session.ts";
import { subscribeThroughCheckout } from "./support/subscribe.ts";

const browser = browserPerFile();

/** Rows of each mirror table and whether each list's first fill finished (IndexedDB `stockbridge`). */
function mirrorContents(
  page: Page,
): Promise<{ rows: Record<string, number>; complete: string[]; outbox: number }> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open("stockbridge");
        // Asked before the app made its database: creating it here would leave an empty version 1
        // open, and the app's upgrade would wait on it for good. Nothing is mirrored yet.
        let missing = false;
        open.onupgradeneeded = () => {
          missing = true;
          open.transaction?.abort();
        };
        open.onerror = () => (missing ? resolve({ rows: {}, complete: [], outbox: 0 }) : reject(open.error));
        open.onsuccess = () => {
          const db = open.result;
          const names = ["shopifyProducts", "acumaticaProducts", "mappings", "schedules", "history"];
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
          tx.onerror = () => {
            db.close();
            reject(tx.error);
          };
        };
      }),
  );
}

const ALL_LISTS = ["acumatica", "history", "mappings", "schedules", "shopify"];

function skusShown(page: Page): Promise<string[]> {
  return page
    .getByRole("table", { name: "Shopify products" })
    .locator("tbody tr td:nth-child(2)")
    .allTextContents();
}

/** A subscriber on the schedules screen, served by the service worker, every list mirrored. */
async function schedulesMirrored(
  session: SignedInSession,
  setUp: (api: ReturnType<typeof apiClient>) => Promise<void>,
) {
  const api = apiClient(session.appUrl, session.token);
  await subscribeThroughCheckout(api, inject("sandboxUrl"));
  await setUp(api);
  const { page } = session;
  await page.goto("/mapping-schedule");
  await installServiceWorker(page);
  await expect
    .poll(async () => (await mirrorContents(page)).complete, { timeout: 30_000 })
    .toEqual(ALL_LISTS);
  return { api, table: page.getByRole("table", { name: "Mapping schedules" }) };
}

const NIGHTLY = {
  schedule: { type: "daily" as const, time: "02:00" },
  isFullSync: true,
  syncOptions: { price: true, quantity: false },
};

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

      await goOffline(context);
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
      // Its products are unmapped again on the device (worked out from the mirror, still offline).
      await page.getByRole("tab", { name: "Unmapped Products" }).click();
      await page.getByRole("searchbox", { name: "Search Unmapped products" }).fill(doomed.shopifyDetails.sku);
      const unmappedRows = page.getByRole("table", { name: "Unmapped products" }).locator("tbody tr");
      await expect
        .poll(() =>
          unmappedRows.evaluateAll((rows) =>
            rows.map((row) => Array.from(row.querySelectorAll("td"), (cell) => cell.textContent)),
          ),
        )
        .toEqual(
          expect.arrayContaining([
            [doomed.shopifyDetails.sku, "-"],
            ["-", doomed.acumaticaDetails.sku],
          ]),
        );

      await goOnline(context);
      await expectToast(page, "1 offline edit sent");
      await expect.poll(async () => (await mirrorContents(page)).outbox).toBe(0);
      expect((await api.call("mappingsByIds", { body: { mappingIds: [doomed._id] } })).mappings).toEqual([]);

      // A pull needs the server: offline its button is disabled and says why.
      await api.call("testShopify");
      await page.goto("/products/shopify");
      const pull = page.getByRole("button", { name: "Get Products" });
      await pull.waitFor();
      await goOffline(context);
      await expect.poll(() => pull.isDisabled()).toBe(true);
      await expect(pull.getAttribute("title")).resolves.toBe(MESSAGES.generic.offline);
      await goOnline(context);

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

  it("counts a delete the server applied before the network dropped as sent, not refused, when it is replayed", async () => {
    const appUrl = inject("appUrl");
    const session = await openSignedInSession(browser(), appUrl, { name: "Dropped Dana" });
    try {
      const { page, context } = session;
      const api = apiClient(appUrl, session.token);
      await prepareCatalogUser(api, inject("sandboxUrl"));
      await autoMap(api);
      const { mappings } = await api.call("mappingHistory", { query: { limit: "1" } });
      const doomed = mappings[0];
      if (!doomed) throw new Error("auto mapping made no mapping");
      await page.goto("/mapping");
      await expect
        .poll(async () => (await mirrorContents(page)).complete, { timeout: 30_000 })
        .toEqual(ALL_LISTS);

      // The delete leaves the browser and is held on its way, as on a network about to drop.
      let held: (route: Route) => void = () => undefined;
      const onItsWay = new Promise<Route>((resolve) => {
        held = resolve;
      });
      await context.route(`**/api/mapping/${doomed._id}`, (route) =>
        route.request().method() === "DELETE" ? held(route) : route.fallback(),
      );
      const table = page.getByRole("table", { name: "Mappings" });
      const row = table.locator("tbody tr", {
        has: page.getByRole("cell", { name: doomed.shopifyDetails.sku, exact: true }),
      });
      await row.getByRole("button", { name: /^Delete/ }).click();
      await page
        .getByRole("dialog", { name: "Delete Mapping" })
        .getByRole("button", { name: "Delete" })
        .click();
      const route = await onItsWay;
      // The server applies it, then the network drops before its answer reaches the app.
      expect((await route.fetch()).status()).toBe(200);
      await goOffline(context);
      await route.abort("internetdisconnected");
      await context.unroute(`**/api/mapping/${doomed._id}`);
      // The app saw a network failure: the delete waits in the outbox, already gone on the server.
      await expect.poll(async () => (await mirrorContents(page)).outbox).toBe(1);
      expect((await api.call("mappingsByIds", { body: { mappingIds: [doomed._id] } })).mappings).toEqual([]);

      await goOnline(context);
      await expect.poll(async () => (await mirrorContents(page)).outbox).toBe(0);
      await expectToast(page, "1 offline edit sent");
      // The replay's 404 means what the merchant asked for is done: no refusal, the row stays gone.
      const toasts = await page.evaluate(() => window.__shown?.toast ?? []);
      expect(toasts.filter((text) => text.includes("Delete mapping"))).toEqual([]);
      await expect.poll(() => row.count()).toBe(0);
    } finally {
      await session.close();
    }
  });

  it("keeps a schedule created offline through a reload, marked Pending, and creates it on reconnect", async () => {
    const session = await openSignedInSession(browser(), inject("appUrl"), { name: "Offline Olive" });
    try {
      const { page, context } = session;
      const { api, table } = await schedulesMirrored(session, async () => {});
      await table.getByText("No data available").waitFor();

      await goOffline(context);
      await page.getByRole("button", { name: "Create Schedule" }).click();
      const create = page.getByRole("dialog", { name: "Create New Schedule" });
      await create.getByLabel("Schedule Name").fill("Stockroom nightly");
      await create.getByLabel("Time").fill("03:15");
      await create.getByLabel("Price").check();
      await create.getByRole("button", { name: "Create", exact: true }).click();
      await create.waitFor({ state: "hidden" });
      const row = table.locator("tbody tr", { hasText: "Stockroom nightly" });
      await row.getByText("Pending", { exact: true }).waitFor();
      await expect.poll(async () => (await mirrorContents(page)).outbox).toBe(1);

      await page.reload();
      await row.getByText("Pending", { exact: true }).waitFor();
      await expect(row.getByRole("cell").nth(1).textContent()).resolves.toBe("Daily at 03:15");
      await expect(api.call("listSchedules")).resolves.toMatchObject({ total: 0 });

      await goOnline(context);
      await expectToast(page, "1 offline edit sent");
      await expect.poll(async () => (await mirrorContents(page)).outbox).toBe(0);
      const { schedules, total } = await api.call("listSchedules");
      expect(total).toBe(1);
      const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      expect(schedules[0]).toMatchObject({
        name: "Stockroom nightly",
        schedule: { type: "daily", time: "03:15" },
        timezone: browserZone,
        isFullSync: true,
        syncOptions: { price: true, quantity: false },
        status: "active",
      });
      // The server's row replaced the pending one: one row, no mark, its real next run shown.
      await expect.poll(() => row.getByText("Pending", { exact: true }).count()).toBe(0);
      await expect.poll(() => row.count()).toBe(1);
      await expect.poll(() => row.getByRole("cell").nth(3).textContent()).not.toBe("Not scheduled");
    } finally {
      await session.close();
    }
  });

  it("shows a replay the server refuses with its message and puts the server's list back", async () => {
    const session = await openSignedInSession(browser(), inject("appUrl"), { name: "Refused Rita" });
    try {
      const { page, context } = session;
      let doomedId = "";
      const { api, table } = await schedulesMirrored(session, async (api) => {
        doomedId = (await api.call("createSchedule", { body: { name: "Doomed nightly", ...NIGHTLY } }))._id;
        await api.call("createSchedule", { body: { name: "Kept nightly", ...NIGHTLY } });
      });
      const doomed = table.locator("tbody tr", { hasText: "Doomed nightly" });
      await doomed.waitFor();

      await goOffline(context);
      await doomed.getByRole("button", { name: "Deactivate schedule Doomed nightly" }).click();
      await doomed.getByText("Pending", { exact: true }).waitFor();
      await expect(doomed.getByRole("cell").nth(4).textContent()).resolves.toBe("Inactive");
      // Meanwhile the schedule is deleted on another device: the replay will be refused.
      await api.call("deleteSchedule", { params: { id: doomedId } });
      const refusal = await api
        .call("setScheduleStatus", { params: { id: doomedId }, body: { status: "inactive" } })
        .then(
          () => "",
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        );
      expect(refusal).not.toBe("");

      await goOnline(context);
      await expectToast(page, `Switch schedule Doomed nightly: ${refusal}`);
      await expect.poll(async () => (await mirrorContents(page)).outbox).toBe(0);
      // The list shows the server's truth: the deleted schedule gone, the other one as it was.
      await expect.poll(() => doomed.count()).toBe(0);
      const kept = table.locator("tbody tr", { hasText: "Kept nightly" });
      await expect(kept.getByRole("cell").nth(4).textContent()).resolves.toBe("Active");
      await expect(kept.getByText("Pending", { exact: true }).count()).resolves.toBe(0);
      await page.reload();
      await kept.waitFor();
      await expect(doomed.count()).resolves.toBe(0);
      await expect(api.call("listSchedules")).resolves.toMatchObject({ total: 1 });
    } finally {
      await session.close();
    }
  });
});
