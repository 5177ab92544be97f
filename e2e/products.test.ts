import {
  ACUMATICA_API_VERSIONS,
  type ApiClient,
  DEFAULT_ACUMATICA_API_VERSION,
  DEFAULT_SHOPIFY_API_VERSION,
  MESSAGES,
  SHOPIFY_API_VERSIONS,
} from "@stockbridge/shared";
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { slowDownSandbox } from "./support/catalog-setup.ts";
import { browserPerFile, withSignedInSession } from "./support/fixtures.ts";
import { apiClient, expectShown, expectToast, type SignedInSession } from "./support/session.ts";
import { subscribeThroughCheckout } from "./support/subscribe.ts";

const browser = browserPerFile();

type System = "Shopify" | "Acumatica";

/** The sandbox's demo connection as save bodies (its versions narrowed to the contract's lists). */
async function sandboxConnections(api: ApiClient) {
  const demo = await api.call("sandbox");
  return {
    shopify: {
      ...demo.shopify,
      apiVersion:
        SHOPIFY_API_VERSIONS.find((v) => v === demo.shopify.apiVersion) ?? DEFAULT_SHOPIFY_API_VERSION,
    },
    acumatica: {
      ...demo.acumatica,
      apiVersion:
        ACUMATICA_API_VERSIONS.find((v) => v === demo.acumatica.apiVersion) ?? DEFAULT_ACUMATICA_API_VERSION,
    },
  };
}

/** A new subscribed user; `connect` saves the sandbox connections and tests them (verified). */
function subscribedUser(
  options: { connect: boolean },
  body: (page: Page, api: ApiClient, session: SignedInSession) => Promise<void>,
): Promise<void> {
  return withSignedInSession(browser(), {}, async (session) => {
    const api = apiClient(session.appUrl, session.token);
    await subscribeThroughCheckout(api, inject("sandboxUrl"));
    if (options.connect) {
      const demo = await sandboxConnections(api);
      await api.call("saveShopify", { body: demo.shopify });
      await api.call("saveAcumatica", { body: demo.acumatica });
      await Promise.all([api.call("testShopify"), api.call("testAcumatica")]);
    }
    await body(session.page, api, session);
  });
}

function table(page: Page, system: System): Locator {
  return page.getByRole("table", { name: `${system} products` });
}

function bodyRows(page: Page, system: System): Locator {
  return table(page, system).locator("tbody tr");
}

/** The texts of one column (1-based, counting the index column) on the current page. */
async function columnTexts(page: Page, system: System, column: number): Promise<string[]> {
  return bodyRows(page, system).locator(`td:nth-child(${column})`).allTextContents();
}

async function columnIndex(page: Page, system: System, header: string): Promise<number> {
  const headers = await table(page, system).locator("thead th").allTextContents();
  const index = headers.findIndex((text) => text.trim() === header);
  if (index < 0) throw new Error(`No column "${header}" in ${headers.join(", ")}`);
  return index + 1;
}

/** Opens the screen, presses Get Products and waits for the pull to finish and the rows to show. */
async function getProducts(page: Page, system: System): Promise<void> {
  await page.goto(`/products/${system.toLowerCase()}`);
  await page.getByRole("heading", { name: `${system} Products`, level: 1 }).waitFor();
  await table(page, system).getByText("No data available", { exact: true }).waitFor();
  await page.getByText("Last synced: Never", { exact: true }).waitFor();

  // Slow the simulated system down so the in-progress state lasts long enough to be drawn; the
  // page's record of what it showed holds it after (a loaded test may only look once it is over).
  const restore = await slowDownSandbox(
    inject("sandboxUrl"),
    system === "Shopify" ? "shopify" : "acumatica",
    400,
  );
  try {
    await page.getByRole("button", { name: "Get Products" }).click();
    await expectShown(page, "disabledButton", "Fetching...");
    await expectShown(page, "progressbar", `Fetching ${system} products`);
  } finally {
    await restore();
  }
  // The Shopify pull of the demo store takes 9–10 s here (measured on a quiet machine, with no
  // added latency), so the page's default 10 s left no margin under load.
  await expectToast(page, MESSAGES.products.synchronized, { timeout: 30_000 });
  await page.getByRole("button", { name: "Get Products" }).waitFor();
  await expect.poll(() => bodyRows(page, system).count()).toBe(10);
  await page.getByText(/^Last synced: [A-Z][a-z]{2} \d{1,2}, \d{4} \d{2}:\d{2}$/).waitFor();
}

async function search(page: Page, system: System, text: string): Promise<void> {
  const box = page.getByRole("searchbox", { name: `Search ${system} products` });
  await box.fill("");
  await box.pressSequentially(text, { delay: 30 });
}

/** Checks sorting by SKU both ways against the page's own order. */
async function checkSkuSort(page: Page, system: System): Promise<void> {
  const skuColumn = await columnIndex(page, system, "SKU");
  const skuHeader = table(page, system).locator("thead th", { hasText: "SKU" });
  await skuHeader.getByRole("button", { name: "SKU" }).click();
  await expect.poll(() => skuHeader.getAttribute("aria-sort")).toBe("ascending");
  await expect
    .poll(async () => {
      const skus = (await columnTexts(page, system, skuColumn)).map((sku) => sku.toLowerCase());
      return skus.length === 10 && skus.every((sku, i) => i === 0 || skus[i - 1]! <= sku);
    })
    .toBe(true);
  await skuHeader.getByRole("button", { name: "SKU" }).click();
  await expect.poll(() => skuHeader.getAttribute("aria-sort")).toBe("descending");
  await expect
    .poll(async () => {
      const skus = (await columnTexts(page, system, skuColumn)).map((sku) => sku.toLowerCase());
      return skus.length === 10 && skus.every((sku, i) => i === 0 || skus[i - 1]! >= sku);
    })
    .toBe(true);
}

/** Next page continues the index; page size 25 shows 25 rows numbered from 1. */
async function checkPaging(page: Page, system: System): Promise<void> {
  expect((await columnTexts(page, system, 1))[0]).toBe("1");
  await page.getByRole("button", { name: "Next page" }).click();
  await expect.poll(async () => (await columnTexts(page, system, 1))[0]).toBe("11");
  await page.getByText(/^11–20 of \d+$/).waitFor();
  await page.getByLabel("Rows per page").selectOption("25");
  await expect.poll(() => bodyRows(page, system).count()).toBe(25);
  const numbers = await columnTexts(page, system, 1);
  expect(numbers[0]).toBe("1");
  expect(numbers[24]).toBe("25");
}

/** Search is debounced: typing 'SRV-' asks at most once, never once per key. */
async function checkSearch(page: Page, system: System, serviceType: string): Promise<void> {
  const searches: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === `/api/${system.toLowerCase()}/products` && url.searchParams.has("search")) {
      searches.push(url.searchParams.get("search") ?? "");
    }
  });
  const skuColumn = await columnIndex(page, system, "SKU");
  const typeColumn = await columnIndex(page, system, "Type");
  await search(page, system, "SRV-");
  await expect
    .poll(async () => {
      const skus = await columnTexts(page, system, skuColumn);
      return skus.length > 0 && skus.every((sku) => sku.startsWith("SRV-"));
    })
    .toBe(true);
  // Once the offline mirror holds the list, the search is answered from it and asks the server
  // nothing; before that it asks once. Never a request per key.
  expect(searches).not.toContain("S");
  expect(searches).not.toContain("SR");
  expect(searches.filter((term) => term !== "SRV-")).toEqual([]);
  expect(new Set(await columnTexts(page, system, typeColumn))).toEqual(new Set([serviceType]));

  await search(page, system, "zz-no-such-product");
  await table(page, system).getByText("No matching results", { exact: true }).waitFor();
  await page.getByRole("button", { name: "Clear search" }).click();
  await expect.poll(() => bodyRows(page, system).count()).toBeGreaterThan(1);
}

describe("Shopify Products and Acumatica Products", () => {
  it("gets the Shopify products, then pages, sorts and searches them", async () => {
    await subscribedUser({ connect: true }, async (page) => {
      await getProducts(page, "Shopify");
      expect(await table(page, "Shopify").locator("thead th").allTextContents()).toEqual([
        "#",
        "SKU",
        "Price",
        "Compare At Price",
        "Available",
        "On Hand",
        "Type",
      ]);
      // The connection test read the store's currency (USD): prices carry its symbol.
      const prices = await columnTexts(page, "Shopify", 3);
      expect(prices.every((price) => /^\$[\d,]+\.\d{2}$/.test(price))).toBe(true);
      const compareAt = await columnTexts(page, "Shopify", 4);
      expect(compareAt.every((value) => value === "-" || /^\$[\d,]+\.\d{2}$/.test(value))).toBe(true);
      expect(new Set(await columnTexts(page, "Shopify", 7))).toContain("Physical");

      await checkPaging(page, "Shopify");
      await page.getByLabel("Rows per page").selectOption("10");
      await checkSkuSort(page, "Shopify");
      await checkSearch(page, "Shopify", "Service");
    });
  });

  it("gets the Acumatica products, then pages, sorts and searches them", async () => {
    await subscribedUser({ connect: true }, async (page) => {
      await getProducts(page, "Acumatica");
      expect(await table(page, "Acumatica").locator("thead th").allTextContents()).toEqual([
        "#",
        "SKU",
        "Price",
        "MSRP",
        "Available",
        "On Hand",
        "Available for Shipping",
        "Type",
      ]);
      const prices = await columnTexts(page, "Acumatica", 3);
      expect(prices.every((price) => /^\$[\d,]+\.\d{2}$/.test(price))).toBe(true);
      expect(new Set(await columnTexts(page, "Acumatica", 8))).toContain("Stock Item");

      await checkPaging(page, "Acumatica");
      await page.getByLabel("Rows per page").selectOption("10");
      await checkSkuSort(page, "Acumatica");
      await checkSearch(page, "Acumatica", "Non-Stock");
    });
  });

  it("shows the job's message when a pull fails, and keeps the list as it was", async () => {
    await subscribedUser({ connect: true }, async (page, api) => {
      await page.goto("/products/shopify");
      await page.getByRole("button", { name: "Get Products" }).waitFor();
      // The token goes bad after the page loaded (the screen still believes the connection works).
      const demo = await sandboxConnections(api);
      await api.call("saveShopify", { body: { ...demo.shopify, accessToken: "shpat_revoked_0000" } });

      await page.getByRole("button", { name: "Get Products" }).click();
      await expectToast(page, `${MESSAGES.products.syncShopifyFailed}:`);
      await page.getByRole("button", { name: "Get Products" }).waitFor();
      await table(page, "Shopify").getByText("No data available", { exact: true }).waitFor();
      expect(await page.getByRole("progressbar", { name: "Fetching Shopify products" }).count()).toBe(0);
    });
  });

  it("points to Settings instead of offering Get Products without a verified connection", async () => {
    await subscribedUser({ connect: false }, async (page, api) => {
      await page.goto("/products/shopify");
      await page.getByRole("heading", { name: "Shopify Products", level: 1 }).waitFor();
      await page.getByText("No Shopify connection is saved yet", { exact: false }).waitFor();
      expect(await page.getByRole("button", { name: "Get Products" }).count()).toBe(0);

      // Saved but not tested: still not offered, and the link leads to Settings.
      const demo = await sandboxConnections(api);
      await api.call("saveAcumatica", { body: demo.acumatica });
      await page.goto("/products/acumatica");
      await page.getByText("Your Acumatica connection is not verified yet", { exact: false }).waitFor();
      expect(await page.getByRole("button", { name: "Get Products" }).count()).toBe(0);
      await page.getByRole("link", { name: "Open Settings" }).click();
      await page.waitForURL((url) => url.pathname === "/settings");
    });
  });
});
