import type { ApiClient } from "@stockbridge/shared";
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { autoMap, prepareCatalogUser, shopifyPlusThrottlePerFile } from "./support/catalog-setup.ts";
import { browserPerFile, withSignedInSession } from "./support/fixtures.ts";
import { apiClient, type SignedInSession } from "./support/session.ts";

const browser = browserPerFile();
shopifyPlusThrottlePerFile();

const SIZES = [
  { width: 768, height: 1024 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const;

/** A long unbroken schedule name widens the table as a run's 'Last Run' date does. */
const WIDE_NAME = "Nightly-prices-and-stock-for-the-whole-store-every-warehouse";

/** Every visible control smaller than 44 x 44 px; a checkbox counts with the label it is tapped through. */
function smallControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = [
      "button",
      "a[href]",
      "select",
      "textarea",
      "summary",
      "input:not([type=hidden])",
      "[role=tab]",
      "[role=option]",
      "[role=menuitem]",
    ].join(",");
    const small: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      const wrapper = element.closest("label");
      const target =
        element.matches("input[type=checkbox], input[type=radio]") && wrapper ? wrapper : element;
      const box = target.getBoundingClientRect();
      // Visually hidden (sr-only) controls are a pixel: a 'Skip to content' link until focused.
      if (box.width <= 1 && box.height <= 1) continue;
      if (box.width < 44 || box.height < 44) {
        const name = element.getAttribute("aria-label") ?? element.textContent?.trim() ?? element.tagName;
        small.push(`${name.slice(0, 40)} ${Math.round(box.width)}x${Math.round(box.height)}`);
      }
    }
    return small;
  });
}

/**
 * Row actions not fully inside the window and their table's visible box, or covered by something
 * else at their centre. Each is brought into view only vertically (the page, a dialog's body),
 * never sideways: what a sideways scroll hides counts as hidden.
 */
function hiddenRowActions(table: Locator): Promise<string[]> {
  return table.evaluate((element) => {
    const scrolls = (node: Element, axis: "overflowX" | "overflowY") =>
      /(auto|scroll)/.test(getComputedStyle(node)[axis]);
    let box: Element = element;
    for (let node = element.parentElement; node; node = node.parentElement) {
      if (scrolls(node, "overflowX")) {
        box = node;
        break;
      }
    }
    const revealVertically = (target: Element) => {
      for (let node = target.parentElement; node; node = node.parentElement) {
        if (!scrolls(node, "overflowY") || node.scrollHeight <= node.clientHeight) continue;
        const offset = target.getBoundingClientRect().top - node.getBoundingClientRect().top;
        node.scrollTop += offset - node.clientHeight / 2;
      }
      window.scrollBy(0, target.getBoundingClientRect().top - window.innerHeight / 2);
    };
    const hidden: string[] = [];
    for (const button of element.querySelectorAll<HTMLElement>("tbody button")) {
      revealVertically(button);
      const rect = button.getBoundingClientRect();
      const visible = box.getBoundingClientRect();
      const inside =
        rect.left >= Math.max(0, visible.left) - 0.5 &&
        rect.right <= Math.min(window.innerWidth, visible.right) + 0.5 &&
        rect.width > 0;
      const atCentre = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
      if (!inside || !atCentre || !button.contains(atCentre))
        hidden.push(button.getAttribute("aria-label") ?? button.textContent ?? "button");
    }
    window.scrollTo(0, 0);
    return hidden;
  });
}

/** When a table is wider than its box: the shade at the hidden edge shows, and follows a scroll. */
async function expectScrollHints(table: Locator): Promise<void> {
  const frame = table.locator("xpath=ancestor::div[@data-table-scroller]/..");
  const scroller = frame.locator("[data-table-scroller]");
  const overflows = await scroller.evaluate((box) => box.scrollWidth > box.clientWidth + 1);
  if (!overflows) return;
  const opacity = (edge: "before" | "after") =>
    frame.locator(`[data-scroll-hint="${edge}"]`).evaluate((hint) => Number(getComputedStyle(hint).opacity));
  await expect.poll(() => opacity("after")).toBeGreaterThan(0.9);
  expect(await opacity("before")).toBe(0);
  await scroller.evaluate((box) => box.scrollTo({ left: box.scrollWidth }));
  await expect.poll(() => opacity("before")).toBeGreaterThan(0.9);
  await expect.poll(() => opacity("after")).toBe(0);
  await scroller.evaluate((box) => box.scrollTo({ left: 0 }));
}

interface Screen {
  path: string;
  heading: string;
  table: string;
}

const SCREENS: Screen[] = [
  { path: "/mapping", heading: "Product Mapping", table: "Mappings" },
  { path: "/mapping-schedule", heading: "Mapping Schedules", table: "Mapping schedules" },
  { path: "/execution-history", heading: "Execution History", table: "Execution history" },
  { path: "/products/shopify", heading: "Shopify Products", table: "Shopify products" },
  { path: "/products/acumatica", heading: "Acumatica Products", table: "Acumatica products" },
];

/** Subscribed, catalogs pulled, auto-mapped, one synced run in history and a schedule. */
async function prepareStore(api: ApiClient): Promise<void> {
  await prepareCatalogUser(api, inject("sandboxUrl"));
  await autoMap(api);
  const { mappings } = await api.call("mappingHistory", { query: { page: "1", limit: "1" } });
  await api.call("syncMapping", {
    params: { id: mappings[0]!._id },
    body: { syncOptions: { price: true, quantity: false } },
  });
  await api.call("createSchedule", {
    body: {
      name: WIDE_NAME,
      schedule: { type: "daily", time: "03:00", day: null, interval: null, minuteInterval: null },
      mappingIds: [],
      isFullSync: true,
      syncOptions: { price: true, quantity: true },
      timezone: "UTC",
      status: "active",
      checkOnly: false,
    },
  });
}

async function checkScreen(page: Page, screen: Screen, where: string): Promise<void> {
  await page.goto(screen.path);
  await page.getByRole("heading", { name: screen.heading }).waitFor();
  const table = page.getByRole("table", { name: screen.table });
  await table.locator("tbody tr td").nth(1).waitFor();
  await page.locator('[aria-busy="true"]').first().waitFor({ state: "detached" });
  expect(await smallControls(page), `${where} ${screen.path}`).toEqual([]);
  expect(await hiddenRowActions(table), `${where} ${screen.path}`).toEqual([]);
  await expectScrollHints(table);
}

/** Opens a dialog, checks its controls and tables, closes it by its Close button. */
async function checkDialog(page: Page, open: () => Promise<void>, name: string, where: string) {
  await open();
  const dialog = page.getByRole("dialog", { name });
  await dialog.waitFor();
  // Past the dialog's opening transition (a scale), so boxes are final; spinners spin on.
  await dialog.evaluate((element) =>
    Promise.all(
      element
        .getAnimations({ subtree: true })
        .filter((animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  expect(await smallControls(page), `${where} dialog ${name}`).toEqual([]);
  for (const table of await dialog.getByRole("table").all()) {
    expect(await hiddenRowActions(table), `${where} dialog ${name}`).toEqual([]);
  }
  await dialog.getByRole("button", { name: "Close", exact: true }).first().click();
  await dialog.waitFor({ state: "hidden" });
}

async function checkEverything(session: SignedInSession, size: (typeof SIZES)[number]): Promise<void> {
  const { page } = session;
  const where = `${size.width}x${size.height}`;
  for (const screen of SCREENS) await checkScreen(page, screen, where);

  await page.goto("/mapping");
  await page.getByRole("table", { name: "Mappings" }).locator("tbody tr td").nth(1).waitFor();
  await checkDialog(
    page,
    () => page.getByRole("button", { name: "Manual Mapping" }).click(),
    "Manual Mapping",
    where,
  );
  await checkDialog(
    page,
    () =>
      page
        .getByRole("button", { name: /^Sync mapping/ })
        .first()
        .click(),
    "Select Sync Options",
    where,
  );

  await page.goto("/mapping-schedule");
  await page.getByRole("table", { name: "Mapping schedules" }).getByText(WIDE_NAME).waitFor();
  await checkDialog(
    page,
    async () => {
      await page.getByRole("button", { name: "Create Schedule" }).click();
      const dialog = page.getByRole("dialog", { name: "Create New Schedule" });
      // Full Sync off shows the mappings to choose from (checkboxes); the chosen ones fill a table
      // with a Remove action per row.
      await dialog.getByLabel("Full Sync (Sync all mappings)").uncheck();
      await dialog.locator("ul li").first().getByRole("checkbox").check();
      await dialog.getByRole("table").locator("tbody tr").first().waitFor();
    },
    "Create New Schedule",
    where,
  );

  await page.goto("/execution-history");
  const history = page.getByRole("table", { name: "Execution history" });
  await history.locator("tbody tr td").nth(1).waitFor();
  await checkDialog(
    page,
    () => history.getByRole("button", { name: /^View/ }).first().click(),
    "Execution Details - Unknown Schedule",
    where,
  );
}

describe("Tablet and touch", () => {
  for (const size of SIZES) {
    it(`gives every control a 44 px target and keeps every row action in view at ${size.width}x${size.height}`, async () => {
      await withSignedInSession(
        browser(),
        { ...size, touch: true, name: "Tablet Tester", serviceWorkers: "block" },
        async (session) => {
          await prepareStore(apiClient(session.appUrl, session.token));
          await checkEverything(session, size);
        },
      );
    });
  }
});
