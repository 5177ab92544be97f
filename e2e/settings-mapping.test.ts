import { MESSAGES } from "@stockbridge/shared";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { connectSandbox } from "./support/catalog-setup.ts";
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

describe("Settings > Mapping: location mapping", () => {
  it("asks for the connections first, then maps warehouses to locations by keyboard, saves, and names the rule a bad mapping breaks", async () => {
    await signedIn(async ({ page, appUrl, token }) => {
      const api = apiClient(appUrl, token);
      await openMappingTab(page);
      const card = page.getByRole("region", { name: "Location Mapping" });
      // No Shopify connection yet: the card says so and offers to try again.
      await card.getByRole("alert").waitFor();
      const retry = card.getByRole("button", { name: "Try again" });

      await connectSandbox(api);
      await retry.focus();
      await page.keyboard.press("Enter");
      const main = card.getByRole("group", { name: /Main Warehouse/ });
      const downtown = card.getByRole("group", { name: "Downtown Store" });
      await main.getByLabel("RETAIL").waitFor();
      // The default: the primary location fed by every warehouse; deactivated locations are not offered.
      for (const warehouse of ["RETAIL", "RETURNS", "WHOLESALE"]) {
        await expect(main.getByLabel(warehouse).isChecked()).resolves.toBe(true);
        await expect(downtown.getByLabel(warehouse).isChecked()).resolves.toBe(false);
      }
      await expect(card.getByRole("group", { name: "Harbor Pop-up" }).count()).resolves.toBe(0);

      // A warehouse ticked under another location moves there (it feeds one location at most).
      await downtown.getByLabel("RETAIL").focus();
      await page.keyboard.press("Space");
      await expect(downtown.getByLabel("RETAIL").isChecked()).resolves.toBe(true);
      await expect(main.getByLabel("RETAIL").isChecked()).resolves.toBe(false);
      await card.getByRole("button", { name: "Save Location Mapping" }).focus();
      await page.keyboard.press("Enter");
      await expectToast(page, MESSAGES.settings.locationSaved);
      expect((await api.call("settings")).locationMapping).toEqual({
        locations: [
          { shopifyLocationId: "gid://shopify/Location/70001", warehouseIds: ["RETURNS", "WHOLESALE"] },
          { shopifyLocationId: "gid://shopify/Location/70002", warehouseIds: ["RETAIL"] },
        ],
      });

      await page.reload();
      await showMappingTab(page);
      const again = page.getByRole("region", { name: "Location Mapping" });
      await again.getByRole("group", { name: "Downtown Store" }).getByLabel("RETAIL").waitFor();
      await expect(
        again.getByRole("group", { name: "Downtown Store" }).getByLabel("RETAIL").isChecked(),
      ).resolves.toBe(true);

      // Nothing ticked anywhere: the server refuses, and the toast names the rule.
      for (const group of [/Main Warehouse/, "Downtown Store"] as const) {
        for (const warehouse of ["RETAIL", "RETURNS", "WHOLESALE"]) {
          const box = again.getByRole("group", { name: group }).getByLabel(warehouse);
          if (await box.isChecked()) await box.uncheck();
        }
      }
      await again.getByRole("button", { name: "Save Location Mapping" }).click();
      await expectToast(page, "locations must map at least one Shopify location");
      expect((await api.call("settings")).locationMapping.locations).toHaveLength(2);
    });
  });
});
