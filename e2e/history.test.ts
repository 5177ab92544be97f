import { type ApiClient, type Mapping, MESSAGES } from "@stockbridge/shared";
import { describe, expect, inject, it } from "vitest";
import {
  autoMap,
  findSyncableMapping,
  prepareCatalogUser,
  setErpQuantity,
  shopifyPlusThrottlePerFile,
  waitForJob,
} from "./support/catalog-setup.ts";
import { browserPerFile } from "./support/fixtures.ts";
import { apiClient, expectToast, openSignedInSession } from "./support/session.ts";

const browser = browserPerFile();
shopifyPlusThrottlePerFile();

/** Shopify refuses a total quantity above 1,000,000,000: an ERP quantity above it fails that one mapping. */
const TOO_MANY_PER_WAREHOUSE = 400_000_000;

describe("Execution History", () => {
  it("lists each sync run with its counts and shows a failing mapping's error in the details", async () => {
    const sandboxUrl = inject("sandboxUrl");
    const session = await openSignedInSession(browser(), inject("appUrl"), {
      name: "History Tester",
      serviceWorkers: "block",
    });
    const api = apiClient(session.appUrl, session.token);
    let failing: string | null = null;
    try {
      await prepareCatalogUser(api, sandboxUrl);
      await autoMap(api);
      const good = await findSyncableMapping(api, sandboxUrl);
      const bad = await findSyncableMapping(api, sandboxUrl, { exclude: [good.mapping._id] });
      failing = bad.mapping.acumaticaDetails.sku;

      const quantityOnly = { price: false, quantity: true };
      const ok = await api.call("syncMapping", {
        params: { id: good.mapping._id },
        body: { syncOptions: quantityOnly },
      });
      expect(ok.results[0]?.outcome).toBe("succeeded");
      await setErpQuantity(sandboxUrl, failing, TOO_MANY_PER_WAREHOUSE);
      const refused = await api.call("syncMapping", {
        params: { id: bad.mapping._id },
        body: { syncOptions: quantityOnly },
      });
      expect(refused.results[0]?.outcome).toBe("failed");

      const { page } = session;
      await page.goto("/execution-history");
      await page.getByRole("heading", { name: "Execution History" }).waitFor();
      const table = page.getByRole("table", { name: "Execution history" });
      const rows = table.locator("tbody tr");
      await rows.nth(1).waitFor();
      await expect(rows.count()).resolves.toBe(2);
      // Fixed page size: no rows-per-page choice.
      await expect(page.getByLabel("Rows per page").count()).resolves.toBe(0);

      // Newest first: the refused run, then the good one.
      const cells = async (index: number) =>
        (await rows.nth(index).locator("td").allTextContents()).map((text) => text.trim());
      const [name, start, end, success, failure, status] = await cells(0);
      // Nothing of that run synced: failed, not a green 'completed'.
      expect([name, success, failure, status]).toEqual(["Unknown Schedule", "0", "1", "Failed"]);
      expect(start).not.toBe("-");
      expect(end).not.toBe("-");
      const older = await cells(1);
      expect([older[0], older[3], older[4], older[5]]).toEqual(["Unknown Schedule", "1", "0", "Completed"]);

      await rows.nth(0).getByRole("button", { name: /^View/ }).click();
      const details = page.getByRole("dialog", { name: "Execution Details - Unknown Schedule" });
      await details.waitFor();
      await expect(
        details.getByText("Failure", { exact: true }).locator("..").textContent(),
      ).resolves.toContain("1");
      await details.getByRole("heading", { name: "Failed Mappings" }).waitFor();
      const failed = details.getByRole("table", { name: "Failed Mappings" }).locator("tbody tr");
      await expect(failed.count()).resolves.toBe(1);
      const failedCells = (await failed.first().locator("td").allTextContents()).map((text) => text.trim());
      expect(failedCells).toEqual([
        bad.mapping.shopifyDetails.sku,
        failing,
        "The total quantity can't be higher than 1,000,000,000.",
      ]);
      // Closed by its button: here Escape left the dialog open in two full runs under load (cause
      // not found yet); Escape itself is covered by the shell and schedules tests.
      await details.getByRole("button", { name: "Close" }).last().click();
      await details.waitFor({ state: "detached" });

      await rows.nth(1).getByRole("button", { name: /^View/ }).click();
      await details.waitFor();
      await expect(
        details.getByText("Success", { exact: true }).locator("..").textContent(),
      ).resolves.toContain("1");
      await expect(details.getByRole("heading", { name: "Failed Mappings" }).count()).resolves.toBe(0);
    } finally {
      // The sandbox is shared: leave the item with an ordinary quantity again.
      if (failing) await setErpQuantity(sandboxUrl, failing, 10);
      await session.close();
    }
  });
});

/**
 * A mapping a quantity sync skips (a variant Shopify does not track, or a service the ERP keeps no
 * stock of), with the reason a dry run gives for it.
 */
async function findSkippedMapping(api: ApiClient): Promise<{ mapping: Mapping; reason: string }> {
  for (let page = 1; page <= 5; page += 1) {
    const { products } = await api.call("shopifyProducts", { query: { page: String(page), limit: "100" } });
    for (const product of products.filter((candidate) => !candidate.tracked && candidate.sku)) {
      const { mappings } = await api.call("mappingHistory", { query: { search: product.sku } });
      const mapping = mappings.find((candidate) => candidate.shopifyDetails.sku === product.sku);
      if (!mapping) continue;
      const plan = await api.call("syncMapping", {
        params: { id: mapping._id },
        body: { syncOptions: { price: false, quantity: true }, dryRun: true },
      });
      const result = plan.results[0];
      if (result?.outcome === "skipped" && result.reason) return { mapping, reason: result.reason };
    }
  }
  throw new Error("No mapping of the sandbox catalog that a quantity sync skips");
}

describe("Execution History outcomes", () => {
  it("shows a partial run as 'Completed with failures', lists its skips apart and retries only its failed mapping", async () => {
    const sandboxUrl = inject("sandboxUrl");
    const session = await openSignedInSession(browser(), inject("appUrl"), {
      name: "Retry Tester",
      serviceWorkers: "block",
    });
    const api = apiClient(session.appUrl, session.token);
    let failing: string | null = null;
    try {
      await prepareCatalogUser(api, sandboxUrl);
      await autoMap(api);
      const good = await findSyncableMapping(api, sandboxUrl);
      const bad = await findSyncableMapping(api, sandboxUrl, { exclude: [good.mapping._id] });
      const skipped = await findSkippedMapping(api);
      failing = bad.mapping.acumaticaDetails.sku;
      await setErpQuantity(sandboxUrl, failing, TOO_MANY_PER_WAREHOUSE);
      const { job } = await api.call("syncMappings", {
        body: {
          mappingIds: [good.mapping._id, bad.mapping._id, skipped.mapping._id],
          syncOptions: { price: false, quantity: true },
        },
      });
      await waitForJob(api, job);
      // The ERP value is fixed after the run: a retry of the failed mapping now goes through.
      await setErpQuantity(sandboxUrl, failing, 10);

      const { page } = session;
      await page.goto("/execution-history");
      const rows = page.getByRole("table", { name: "Execution history" }).locator("tbody tr");
      await rows.first().getByText("Completed with failures").waitFor();
      const cells = async (index: number) =>
        (await rows.nth(index).locator("td").allTextContents()).map((text) => text.trim());
      expect((await cells(0)).slice(3)).toEqual(["1", "1", "Completed with failures", ""]);
      // Error style, as the spec shows anything but completed and running.
      await expect(
        rows.first().getByText("Completed with failures").getAttribute("class"),
      ).resolves.toContain("text-red-800");

      await rows.first().getByRole("button", { name: /^View/ }).click();
      const details = page.getByRole("dialog", { name: "Execution Details - Unknown Schedule" });
      const failedRows = details.getByRole("table", { name: "Failed Mappings" }).locator("tbody tr");
      await failedRows.first().waitFor();
      await expect(failedRows.count()).resolves.toBe(1);
      const skippedRows = details.getByRole("table", { name: "Skipped" }).locator("tbody tr");
      await skippedRows.first().waitFor();
      expect((await skippedRows.first().locator("td").allTextContents()).map((text) => text.trim())).toEqual([
        skipped.mapping.shopifyDetails.sku,
        skipped.mapping.acumaticaDetails.sku,
        skipped.reason,
      ]);

      await details.getByRole("button", { name: "Retry failed" }).click();
      await expectToast(page, MESSAGES.mapping.synchronized);
      // Closed by its button: here Escape left the dialog open in two full runs under load (cause
      // not found yet); Escape itself is covered by the shell and schedules tests.
      await details.getByRole("button", { name: "Close" }).last().click();
      await details.waitFor({ state: "detached" });
      // The retry is a new run at the top of the list: its one mapping synced.
      await rows.nth(1).waitFor();
      expect((await cells(0)).slice(3, 6)).toEqual(["1", "0", "Completed"]);
      expect((await cells(1)).slice(3, 6)).toEqual(["1", "1", "Completed with failures"]);

      await rows.first().getByRole("button", { name: /^View/ }).click();
      await details.getByText("Retry of the failed mappings of").waitFor();
      await expect(details.getByRole("button", { name: "Retry failed" }).count()).resolves.toBe(0);
      await details.getByRole("button", { name: /^run / }).click();
      // The link shows the original run: its failed mapping, and its retry button still there.
      await failedRows.first().waitFor();
      expect((await failedRows.first().locator("td").allTextContents()).map((text) => text.trim())).toEqual([
        bad.mapping.shopifyDetails.sku,
        failing,
        "The total quantity can't be higher than 1,000,000,000.",
      ]);
      await details.getByRole("button", { name: "Retry failed" }).waitFor();
    } finally {
      if (failing) await setErpQuantity(sandboxUrl, failing, 10);
      await session.close();
    }
  });
});
