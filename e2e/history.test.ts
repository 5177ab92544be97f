import { describe, expect, inject, it } from "vitest";
import {
  autoMap,
  findSyncableMapping,
  prepareCatalogUser,
  setErpQuantity,
  shopifyPlusThrottlePerFile,
} from "./support/catalog-setup.ts";
import { browserPerFile } from "./support/fixtures.ts";
import { apiClient, openSignedInSession } from "./support/session.ts";

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
      expect([name, success, failure, status]).toEqual(["Unknown Schedule", "0", "1", "completed"]);
      expect(start).not.toBe("-");
      expect(end).not.toBe("-");
      const older = await cells(1);
      expect([older[0], older[3], older[4], older[5]]).toEqual(["Unknown Schedule", "1", "0", "completed"]);

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
      await page.keyboard.press("Escape");
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
