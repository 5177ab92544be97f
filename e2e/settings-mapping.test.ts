import { MESSAGES } from "@stockbridge/shared";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserPerFile, withSignedInSession } from "./support/fixtures.ts";
import { apiClient, expectToast, type SignedInSession } from "./support/session.ts";

const browser = browserPerFile();

function signedIn(body: (session: SignedInSession) => Promise<void>): Promise<void> {
  return withSignedInSession(browser(), { name: "Mapping Settings", serviceWorkers: "block" }, body);
}

/** Opens Settings on its Mapping tab and waits for both cards. */
async function openMappingTab(page: Page): Promise<{ quantity: Locator; price: Locator }> {
  await page.goto("/settings");
  return showMappingTab(page);
}

/**
 * The Mapping tab of the Settings page on screen. After a reload it is called without navigating
 * again: the reload is the fresh start under test, and a second navigation at once would abandon
 * the reloaded page mid start-up and race two start-ups.
 */
async function showMappingTab(page: Page): Promise<{ quantity: Locator; price: Locator }> {
  await page.getByRole("tab", { name: "Mapping" }).click();
  const quantity = page.getByRole("region", { name: "Quantity Mapping" });
  const price = page.getByRole("region", { name: "Price Mapping" });
  await quantity.getByLabel("Acumatica Quantity").waitFor();
  await price.getByLabel("Sync Price").waitFor();
  return { quantity, price };
}

/** Counts the page's writes to one API path, to prove a rejected form sent nothing. */
function countWrites(page: Page, path: string): () => number {
  let count = 0;
  page.on("request", (request) => {
    if (request.method() === "PUT" && new URL(request.url()).pathname === path) count += 1;
  });
  return () => count;
}

describe("Settings > Mapping: quantity mapping", () => {
  it("saves the Acumatica quantity, keeps it after a reload, and keeps the Shopify quantity fixed", async () => {
    await signedIn(async ({ page, appUrl, token }) => {
      const { quantity } = await openMappingTab(page);
      const acumatica = quantity.getByLabel("Acumatica Quantity");
      const shopify = quantity.getByLabel("Shopify Quantity");
      await expect(acumatica.inputValue()).resolves.toBe("Available");
      await expect(shopify.inputValue()).resolves.toBe("Available");
      await expect(shopify.isDisabled()).resolves.toBe(true);
      const choices = await acumatica.locator("option").allTextContents();
      expect(choices).toEqual(["Available", "On Hand", "Available for Shipping"]);

      await acumatica.selectOption({ label: "Available for Shipping" });
      await quantity.getByRole("button", { name: "Save Quantity Mapping" }).click();
      await expectToast(page, MESSAGES.settings.quantitySaved);
      const saved = await apiClient(appUrl, token).call("settings");
      expect(saved.quantityMapping).toEqual({
        acumaticaQuantity: "AvailableForShipping",
        shopifyQuantity: "Available",
      });

      await page.reload();
      const again = await showMappingTab(page);
      await expect(again.quantity.getByLabel("Acumatica Quantity").inputValue()).resolves.toBe(
        "AvailableForShipping",
      );
      await expect(again.quantity.getByLabel("Shopify Quantity").isDisabled()).resolves.toBe(true);
    });
  });
});

describe("Settings > Mapping: price mapping", () => {
  it("refuses to save with both price fields off, then saves MSRP and keeps it after a reload", async () => {
    await signedIn(async ({ page, appUrl, token }) => {
      const writes = countWrites(page, "/api/settings/price-mapping");
      const { price } = await openMappingTab(page);
      const syncPrice = price.getByLabel("Sync Price");
      const syncMsrp = price.getByLabel("Sync MSRP");
      await expect(syncPrice.isChecked()).resolves.toBe(false);
      await expect(syncMsrp.isChecked()).resolves.toBe(false);

      await price.getByRole("button", { name: "Save Price Mapping" }).click();
      await price.getByRole("alert").filter({ hasText: MESSAGES.settings.atLeastOnePrice }).waitFor();
      expect(writes()).toBe(0);

      await syncMsrp.check();
      await price.getByRole("alert").waitFor({ state: "detached" });
      await price.getByRole("button", { name: "Save Price Mapping" }).click();
      await expectToast(page, MESSAGES.settings.priceSaved);
      expect(writes()).toBe(1);
      const saved = await apiClient(appUrl, token).call("settings");
      expect(saved.priceMapping).toEqual({ syncPrice: false, syncMsrp: true });

      await page.reload();
      const again = await showMappingTab(page);
      await expect(again.price.getByLabel("Sync MSRP").isChecked()).resolves.toBe(true);
      await expect(again.price.getByLabel("Sync Price").isChecked()).resolves.toBe(false);

      // Unchecking the last one shows the rule at once.
      await again.price.getByLabel("Sync MSRP").uncheck();
      await again.price.getByRole("alert").filter({ hasText: MESSAGES.settings.atLeastOnePrice }).waitFor();
    });
  });
});
