import { MESSAGES, type SyncJobResult, safetyLimitFormRule } from "@stockbridge/shared";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import {
  autoMap,
  prepareCatalogUser,
  priceJumpMapping,
  setShopifyPrice,
  shopifyPlusThrottlePerFile,
  shopifyPrice,
  waitForJob,
} from "./support/catalog-setup.ts";
import { browserPerFile, withSignedInSession } from "./support/fixtures.ts";
import { apiClient, expectToast } from "./support/session.ts";

const browser = browserPerFile();
shopifyPlusThrottlePerFile();

/** Counts the page's writes to one API path, to prove a refused form sent nothing. */
function countWrites(page: Page, path: string): () => number {
  let count = 0;
  page.on("request", (request) => {
    if (request.method() === "PUT" && new URL(request.url()).pathname === path) count += 1;
  });
  return () => count;
}

describe("Settings > Mapping: safety limits", () => {
  it("shows the defaults, refuses a limit out of bounds without saving, then saves and keeps the limits after a reload", async () => {
    await withSignedInSession(
      browser(),
      { name: "Safety Limits", serviceWorkers: "block" },
      async (session) => {
        const { page, appUrl, token } = session;
        const writes = countWrites(page, "/api/settings/safety");
        await page.goto("/settings");
        await page.getByRole("tab", { name: "Mapping" }).click();
        const card = page.getByRole("region", { name: "Safety Limits" });
        const price = card.getByLabel("Maximum price change (%)");
        const zeroed = card.getByLabel("Maximum quantities set to 0 (%)");
        await price.waitFor();
        await expect(price.inputValue()).resolves.toBe("50");
        await expect(zeroed.inputValue()).resolves.toBe("20");

        await price.fill("1001");
        await card.getByRole("button", { name: "Save Safety Limits" }).click();
        await card.getByText(safetyLimitFormRule(1000)).waitFor();
        await expect(price.getAttribute("aria-invalid")).resolves.toBe("true");
        expect(writes()).toBe(0);

        await price.fill("30");
        await zeroed.fill("0");
        await card.getByRole("button", { name: "Save Safety Limits" }).click();
        await expectToast(page, MESSAGES.settings.safetySaved);
        expect(writes()).toBe(1);
        expect(await apiClient(appUrl, token).call("safetyLimits")).toEqual({
          maxPriceChangePercent: 30,
          maxZeroedPercent: 0,
        });

        await page.reload();
        await page.getByRole("tab", { name: "Mapping" }).click();
        const again = page.getByRole("region", { name: "Safety Limits" });
        await again.getByLabel("Maximum price change (%)").waitFor();
        await expect(again.getByLabel("Maximum price change (%)").inputValue()).resolves.toBe("30");
        await expect(again.getByLabel("Maximum quantities set to 0 (%)").inputValue()).resolves.toBe("0");
      },
    );
  });
});

describe("Execution History: a held run", () => {
  it("shows why it was held and its plan, and writes the plan to Shopify once approved", async () => {
    await withSignedInSession(browser(), { name: "Held Run", serviceWorkers: "block" }, async (session) => {
      const { page, appUrl, token } = session;
      const api = apiClient(appUrl, token);
      const sandboxUrl = inject("sandboxUrl");
      await prepareCatalogUser(api, sandboxUrl);
      await autoMap(api);
      await api.call("savePriceMapping", { body: { syncPrice: true, syncMsrp: false } });
      // The store's price drops to a quarter of the ERP's: a sync would raise it by about 300 %.
      const { mapping, erpPrice, lowered } = await priceJumpMapping(api, sandboxUrl);
      const variantId = mapping.shopifyDetails.variantId;
      try {
        const { job } = await api.call("syncMappings", {
          body: { mappingIds: [mapping._id], syncOptions: { price: true, quantity: false } },
        });
        const held = (await waitForJob(api, job)).result as SyncJobResult;
        expect(held.holdReasons).toHaveLength(1);
        expect(await shopifyPrice(api, sandboxUrl, variantId)).toBe(lowered);

        await page.goto("/execution-history");
        const rows = page.getByRole("table", { name: "Execution history" }).locator("tbody tr");
        await rows.first().getByText("Held for review").waitFor();
        await rows.first().getByRole("button", { name: /^View/ }).click();
        const details = page.getByRole("dialog", { name: "Execution Details - Unknown Schedule" });
        await details.getByText(held.holdReasons![0]!).waitFor();
        expect(held.holdReasons![0]).toMatch(
          new RegExp(`^Price of ${mapping.shopifyDetails.sku} would change by [\\d.]+ % \\(limit 50 %\\)$`),
        );
        const plan = details.getByRole("table", { name: "Held plan" }).locator("tbody tr");
        await plan.first().waitFor();
        const cells = (await plan.first().locator("td").allTextContents()).map((text) => text.trim());
        expect(cells).toEqual([
          mapping.shopifyDetails.sku,
          mapping.acumaticaDetails.sku,
          "Price",
          "-",
          lowered.toFixed(2),
          erpPrice.toFixed(2),
          "-",
        ]);

        await details.getByRole("button", { name: "Approve" }).click();
        const confirm = page.getByRole("dialog", { name: "Approve Held Run" });
        await confirm.getByText("Write the 1 change of this plan to Shopify?", { exact: false }).waitFor();
        await confirm.getByRole("button", { name: "Approve" }).click();
        await expectToast(page, MESSAGES.history.approved);

        // The same entry goes on to its outcome; the plan row says what was done.
        await details.getByText(/^completed$/i).waitFor();
        await plan.first().getByText("Written").waitFor();
        await expect(details.getByRole("button", { name: "Approve" }).count()).resolves.toBe(0);
        expect(await shopifyPrice(api, sandboxUrl, variantId)).toBe(erpPrice);
      } finally {
        // The sandbox is shared: leave the variant at the ERP's price, as a sync would.
        await setShopifyPrice(api, sandboxUrl, { variantId, price: erpPrice });
      }
    });
  });
});
