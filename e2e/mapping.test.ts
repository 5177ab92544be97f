import { type ApiClient, MESSAGES, type Unmapped } from "@stockbridge/shared";
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import {
  autoMap,
  findSyncableMapping,
  prepareCatalogUser,
  shopifyPlusThrottlePerFile,
} from "./support/catalog-setup.ts";
import { browserPerFile, withSignedInSession } from "./support/fixtures.ts";
import { apiClient, expectToast, type SignedInSession } from "./support/session.ts";

const browser = browserPerFile();
shopifyPlusThrottlePerFile();

interface CatalogSession extends SignedInSession {
  api: ApiClient;
}

/** A subscribed user with the sandbox connections and both catalogs pulled, signed in. */
function withCatalogUser(body: (session: CatalogSession) => Promise<void>): Promise<void> {
  return withSignedInSession(
    browser(),
    { name: "Mapping Tester", serviceWorkers: "block" },
    async (session) => {
      const api = apiClient(session.appUrl, session.token);
      await prepareCatalogUser(api, inject("sandboxUrl"));
      await body({ ...session, api });
    },
  );
}

async function openMapping(page: Page): Promise<Locator> {
  await page.goto("/mapping");
  await page.getByRole("heading", { name: "Product Mapping" }).waitFor();
  return page.getByRole("table", { name: "Mappings" });
}

/** Types into a pick list and chooses the option with exactly that SKU. */
async function pick(dialog: Locator, label: string, sku: string): Promise<void> {
  const input = dialog.getByRole("combobox", { name: label });
  await input.fill(sku);
  await dialog.page().getByRole("option", { name: sku, exact: true }).click();
  await expect(input.inputValue()).resolves.toBe(sku);
}

/** Two different SKUs that exist, unmapped, on both sides. */
function twoCommonSkus(unmapped: Unmapped): [string, string] {
  const erp = new Set(unmapped.acumatica.map((product) => product.sku));
  const common = unmapped.shopify
    .map((product) => product.sku)
    .filter((sku) => sku.startsWith("SKU-") && erp.has(sku));
  if (common.length < 2) throw new Error("The sandbox catalog has too few common SKUs");
  return [common[0]!, common[1]!];
}

describe("Product Mapping: auto mapping", () => {
  it("maps identical SKUs as a job, reports what it did, and lists the mappings and the rest", async () => {
    await withCatalogUser(async ({ page, api }) => {
      const table = await openMapping(page);
      await table.getByText("No data available").waitFor();
      await page.getByRole("button", { name: "Auto Mapping" }).click();
      await expectToast(page, MESSAGES.mapping.autoMapped);

      const report = page.getByRole("dialog", { name: "Auto Mapping Report" });
      await report.waitFor();
      const { total } = await api.call("mappingHistory", { query: { page: "1", limit: "1" } });
      expect(total).toBeGreaterThan(0);
      await expect(report.getByText("Mappings created").locator("..").textContent()).resolves.toContain(
        String(total),
      );
      await report
        .getByRole("list", { name: "Duplicate SKUs in Shopify" })
        .getByText("DUP-SHOP-1", { exact: true })
        .waitFor();
      await report
        .getByRole("list", { name: "Duplicate SKUs in Acumatica" })
        .getByText("DUP-ERP-1", { exact: true })
        .waitFor();
      await report.getByRole("button", { name: "Close" }).last().click();
      await report.waitFor({ state: "detached" });

      await page.getByText(`1–10 of ${total}`).waitFor();
      await expect(table.locator("tbody tr").count()).resolves.toBe(10);
      await table.getByRole("cell", { name: "Exact SKU", exact: true }).first().waitFor();

      await page.getByRole("tab", { name: "Unmapped Products" }).click();
      const unmapped = page.getByRole("table", { name: "Unmapped products" });
      await page.getByRole("searchbox", { name: "Search Unmapped products" }).fill("DUP-");
      await unmapped.getByRole("cell", { name: "DUP-SHOP-1", exact: true }).first().waitFor();
      await unmapped.getByRole("cell", { name: "DUP-ERP-1", exact: true }).waitFor();
    });
  });
});

describe("Product Mapping: unmapped products", () => {
  it("pages both lists as one table on the server, by mouse and keyboard, sorted by either column", async () => {
    await withCatalogUser(async ({ page, api }) => {
      const first = await api.call("unmapped", { query: { limit: "1" } });
      const total = first.shopifyTotal + first.acumaticaTotal;
      await openMapping(page);
      await page.getByRole("tab", { name: "Unmapped Products" }).click();
      const table = page.getByRole("table", { name: "Unmapped products" });
      const rows = table.locator("tbody tr");

      await page.getByText(`1–10 of ${total}`).waitFor();
      await expect(rows.count()).resolves.toBe(10);
      await expect(rows.first().locator("td").first().textContent()).resolves.toBe(first.shopify[0]?.sku);

      const next = page.getByRole("button", { name: "Next page" });
      await next.focus();
      await page.keyboard.press("Enter");
      await page.getByText(`11–20 of ${total}`).waitFor();

      // The last page ends with the Acumatica list (its Shopify cell blank), smallest SKU last.
      const lastItem = await api.call("unmapped", {
        query: { limit: "1", acumaticaOffset: String(first.acumaticaTotal - 1) },
      });
      await page.getByRole("button", { name: "Last page" }).click();
      const lastRow = rows.last();
      await lastRow.getByRole("cell", { name: lastItem.acumatica[0]?.sku, exact: true }).waitFor();
      await expect(lastRow.locator("td").first().textContent()).resolves.toBe("-");

      // Sorting by Acumatica SKU puts that list first, ascending, from page 1.
      const ascending = await api.call("unmapped", { query: { limit: "1", sortDirection: "asc" } });
      await table.getByRole("button", { name: "Acumatica SKU" }).click();
      await page.getByText(`1–10 of ${total}`).waitFor();
      await rows.first().getByRole("cell", { name: ascending.acumatica[0]?.sku, exact: true }).waitFor();

      await page.getByRole("searchbox", { name: "Search Unmapped products" }).fill("no-such-sku");
      await table.getByText("No matching results").waitFor();
    });
  });
});

describe("Product Mapping: manual mapping, edit and delete", () => {
  it("maps a pair picked from the unmapped products, shows a conflict, edits it and deletes it", async () => {
    await withCatalogUser(async ({ page, api }) => {
      const unmapped = await api.call("unmapped", { query: { limit: "100", search: "SKU-" } });
      const [first, second] = twoCommonSkus(unmapped);
      const table = await openMapping(page);
      await table.getByText("No data available").waitFor();

      await page.getByRole("button", { name: "Manual Mapping" }).click();
      const dialog = page.getByRole("dialog", { name: "Manual Mapping" });
      const submit = dialog.getByRole("button", { name: "Map Products" });
      await expect(submit.isDisabled()).resolves.toBe(true);
      await pick(dialog, "Shopify Product", first);
      await expect(submit.isDisabled()).resolves.toBe(true);
      await pick(dialog, "Acumatica Product", first);
      await expect(submit.isEnabled()).resolves.toBe(true);

      // Someone maps the same variant meanwhile: the server's 409 message shows, the choices stay.
      const variantId = unmapped.shopify.find((product) => product.sku === first)?.variantId ?? "";
      const erpId = unmapped.acumatica.find((product) => product.sku === second)?.acumaticaId ?? "";
      const raced = await api.call("manualMap", {
        body: { shopifyVariantId: variantId, acumaticaProductId: erpId },
      });
      await submit.click();
      await expectToast(page, "Cannot save mapping");
      await expect(dialog.getByRole("combobox", { name: "Shopify Product" }).inputValue()).resolves.toBe(
        first,
      );
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      await api.call("deleteMapping", { params: { id: raced._id } });

      await page.getByRole("button", { name: "Manual Mapping" }).click();
      await pick(dialog, "Shopify Product", first);
      await pick(dialog, "Acumatica Product", first);
      await dialog.getByRole("button", { name: "Map Products" }).click();
      await expectToast(page, MESSAGES.mapping.manualMapped);
      await dialog.waitFor({ state: "detached" });
      const row = table.locator("tbody tr").first();
      await row.getByRole("cell", { name: "Manual", exact: true }).waitFor();
      await expect(row.textContent()).resolves.toContain(first);
      await page.getByText("1–1 of 1").waitFor();
      await row.getByRole("cell", { name: new Date().toLocaleDateString("en-US") }).waitFor();

      await row.getByRole("button", { name: /^Edit/ }).click();
      const edit = page.getByRole("dialog", { name: "Edit Mapping" });
      await expect(edit.getByRole("combobox", { name: "Shopify Product" }).inputValue()).resolves.toBe(first);
      await expect(edit.getByRole("combobox", { name: "Acumatica Product" }).inputValue()).resolves.toBe(
        first,
      );
      await pick(edit, "Acumatica Product", second);
      await edit.getByRole("button", { name: "Update" }).click();
      await expectToast(page, MESSAGES.mapping.updated);
      await row.getByRole("cell", { name: second, exact: true }).waitFor();
      await page.getByText("1–1 of 1").waitFor();

      await row.getByRole("button", { name: /^Delete/ }).click();
      const confirm = page.getByRole("dialog", { name: "Delete Mapping" });
      await confirm
        .getByText("Are you sure you want to delete this mapping? This action cannot be undone.")
        .waitFor();
      await confirm.getByRole("button", { name: "Delete" }).click();
      await expectToast(page, MESSAGES.mapping.deleted);
      await table.getByText("No data available").waitFor();
      const { total } = await api.call("mappingHistory", { query: { page: "1", limit: "1" } });
      expect(total).toBe(0);
    });
  });
});

describe("Product Mapping: sync one mapping", () => {
  it("previews current -> new for the chosen options, then synchronizes on confirm", async () => {
    await withCatalogUser(async ({ page, api }) => {
      await autoMap(api);
      const target = await findSyncableMapping(api, inject("sandboxUrl"));
      const sku = target.mapping.shopifyDetails.sku;
      const table = await openMapping(page);
      await page.getByRole("searchbox", { name: "Search Mappings" }).fill(sku);
      await page.getByText("1–1 of 1").waitFor();

      await table.getByRole("button", { name: /^Sync/ }).click();
      const dialog = page.getByRole("dialog", { name: "Select Sync Options" });
      const syncPrice = dialog.getByLabel("Sync Price");
      const syncQuantity = dialog.getByLabel("Sync Quantity");
      const confirm = dialog.getByRole("button", { name: "Sync", exact: true });
      await syncPrice.uncheck();
      await syncQuantity.uncheck();
      await dialog.getByRole("alert").filter({ hasText: MESSAGES.mapping.selectSyncOption }).waitFor();
      await expect(confirm.isDisabled()).resolves.toBe(true);

      await syncQuantity.check();
      const change = dialog.getByRole("list", { name: "Planned changes" }).getByRole("listitem");
      await change.filter({ hasText: "Quantity" }).waitFor();
      await expect(change.textContent()).resolves.toMatch(new RegExp(`${target.from}\\s*→\\s*${target.to}`));
      await confirm.click();
      await dialog.waitFor({ state: "detached" });
      await expectToast(page, MESSAGES.mapping.synchronized);

      // Shopify now holds the ERP quantity: a second preview has nothing left to change.
      const after = await api.call("syncMapping", {
        params: { id: target.mapping._id },
        body: { syncOptions: { price: false, quantity: true }, dryRun: true },
      });
      expect(after.results[0]?.outcome).toBe("unchanged");
      await table.getByRole("button", { name: /^Sync/ }).click();
      await dialog.getByLabel("Sync Price").uncheck();
      await dialog.getByText("Already in line").waitFor();
    });
  });
});
