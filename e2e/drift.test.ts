import { readFile } from "node:fs/promises";
import type { ApiClient, Mapping } from "@stockbridge/shared";
import { describe, expect, inject, it } from "vitest";
import { prepareCatalogUser, setErpQuantity, shopifyPlusThrottlePerFile } from "./support/catalog-setup.ts";
import { browserPerFile, withSignedInSession } from "./support/fixtures.ts";
import { apiClient, expectToast } from "./support/session.ts";

const browser = browserPerFile();
shopifyPlusThrottlePerFile();

const QUANTITY = { price: false, quantity: true };

/**
 * Exactly `count` mappings, each of a stock item whose ERP quantity was just set to a fresh value,
 * so its Shopify quantity differs (the sandbox store is shared: only these few get written).
 */
async function driftingMappings(api: ApiClient, sandboxUrl: string, count: number) {
  const unmapped = await api.call("unmapped", { query: { limit: "100" } });
  const erp = new Map(unmapped.acumatica.map((item) => [item.sku, item]));
  const kept: { mapping: Mapping; erp: number }[] = [];
  for (const variant of unmapped.shopify) {
    const item = erp.get(variant.sku);
    if (!variant.sku.startsWith("SKU-") || !item) continue;
    const mapping = await api.call("manualMap", {
      body: { shopifyVariantId: variant.variantId, acumaticaProductId: item.acumaticaId },
    });
    const perWarehouse = 100 + Math.floor(Math.random() * 300);
    await setErpQuantity(sandboxUrl, item.sku, perWarehouse);
    const plan = await api.call("syncMapping", {
      params: { id: mapping._id },
      body: { syncOptions: QUANTITY, dryRun: true },
    });
    const change = plan.results[0]?.changes.find((candidate) => candidate.field === "quantity");
    if (change?.to === perWarehouse * 3 && change.from !== change.to) {
      kept.push({ mapping, erp: change.to });
      if (kept.length === count) return kept;
    } else {
      await api.call("deleteMapping", { params: { id: mapping._id } });
    }
  }
  throw new Error(`The sandbox catalog has fewer than ${count} stock items to drift`);
}

describe("Drift", () => {
  it("checks, lists and downloads what differs, and Fix these brings exactly those mappings in line", async () => {
    const sandboxUrl = inject("sandboxUrl");
    await withSignedInSession(
      browser(),
      { name: "Drift Tester", serviceWorkers: "block" },
      async (session) => {
        const api = apiClient(session.appUrl, session.token);
        await prepareCatalogUser(api, sandboxUrl);
        const drifting = await driftingMappings(api, sandboxUrl, 3);
        const { page } = session;

        await page.goto("/drift");
        await page.getByRole("heading", { name: "Drift" }).waitFor();
        const summary = page.getByRole("region", { name: "Drift summary" });
        await summary.getByText("Not checked yet.", { exact: false }).waitFor();
        await expect(page.getByRole("button", { name: "Fix these" }).isDisabled()).resolves.toBe(true);

        await page.getByRole("button", { name: "Check now" }).click();
        await summary
          .getByText("3 of 3 mappings differ by a dry run of every mapping.", { exact: false })
          .waitFor();
        const stat = (label: string) => summary.getByText(label, { exact: true }).locator("..").locator("dd");
        await expect(stat("Mappings that differ").textContent()).resolves.toBe("3");
        await expect(stat("Quantity").textContent()).resolves.toBe("3");
        await expect(stat("Price").textContent()).resolves.toBe("0");

        const table = page.getByRole("table", { name: "Drift" });
        const rows = table.locator("tbody tr");
        await expect.poll(() => rows.count()).toBe(3);
        const cells = await Promise.all(
          [0, 1, 2].map(async (index) =>
            (await rows.nth(index).locator("td").allTextContents()).map((text) => text.trim()),
          ),
        );
        expect(cells.map((row) => [row[0], row[2], row[5]]).sort()).toEqual(
          drifting.map(({ mapping, erp }) => [mapping.shopifyDetails.sku, "Quantity", String(erp)]).sort(),
        );
        for (const row of cells) expect(row[3]).toMatch(/^Location \d+$/);

        const [download] = await Promise.all([
          page.waitForEvent("download"),
          page.getByRole("button", { name: "Download CSV" }).click(),
        ]);
        expect(download.suggestedFilename()).toBe("drift.csv");
        const csv = (await readFile(await download.path())).toString("utf8").split("\r\n");
        expect(csv[0]).toBe("mappingId,shopifySku,acumaticaSku,field,location,shopify,erp");
        expect(
          csv
            .slice(1, -1)
            .map((line) => line.split(",")[0])
            .sort(),
        ).toEqual(drifting.map(({ mapping }) => mapping._id).sort());

        await page.getByRole("button", { name: "Fix these" }).click();
        const confirm = page.getByRole("dialog", { name: "Fix these" });
        await confirm
          .getByText("Sync the 3 mappings that differ? The ERP's quantities will be written to Shopify", {
            exact: false,
          })
          .waitFor();
        await confirm.getByRole("button", { name: "Fix these" }).click();

        await summary.getByText("0 of 3 mappings differ", { exact: false }).waitFor();
        await table.getByText("No data available").waitFor();
        await expectToast(page, "Synchronized successfully");

        // Shopify now holds each ERP quantity, and one run synced exactly those three mappings.
        for (const { mapping } of drifting) {
          const plan = await api.call("syncMapping", {
            params: { id: mapping._id },
            body: { syncOptions: QUANTITY, dryRun: true },
          });
          expect(plan.results[0]?.outcome).toBe("unchanged");
        }
        const history = await api.call("executionHistory");
        expect(history.histories).toHaveLength(1);
        expect(history.histories[0]).toMatchObject({ successCount: 3, failureCount: 0, drifted: 0 });
      },
    );
  });
});
