import { type ApiClient, MESSAGES } from "@stockbridge/shared";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./support/browser.ts";
import { autoMap, prepareCatalogUser } from "./support/catalog-setup.ts";
import { apiClient, expectToast, openSignedInSession } from "./support/session.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** 'MMM d, yyyy HH:mm' in the browser's own zone, as the screen shows run times. */
function shownTime(page: Page, iso: string): Promise<string> {
  return page.evaluate((value) => {
    const date = new Date(value);
    const month = date.toLocaleString("en-US", { month: "short" });
    const pad = (n: number) => String(n).padStart(2, "0");
    return `${month} ${date.getDate()}, ${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
  }, iso);
}

function rowOf(table: Locator, name: string): Locator {
  return table.locator("tbody tr", { hasText: name });
}

async function onlySchedule(api: ApiClient) {
  const { schedules, total } = await api.call("listSchedules");
  expect(total).toBe(1);
  return schedules[0]!;
}

describe("Mapping Schedules", () => {
  it("creates, edits, toggles and deletes a schedule", async () => {
    const session = await openSignedInSession(browser, inject("appUrl"), {
      name: "Schedule Tester",
      serviceWorkers: "block",
    });
    try {
      const { page } = session;
      const api = apiClient(session.appUrl, session.token);
      await prepareCatalogUser(api, inject("sandboxUrl"));
      await autoMap(api);

      await page.goto("/mapping-schedule");
      await page.getByRole("heading", { name: "Mapping Schedules" }).waitFor();
      const table = page.getByRole("table", { name: "Mapping schedules" });
      await table.getByText("No data available").waitFor();

      // Create with the defaults (daily 00:00, full sync), enabling Price.
      await page.getByRole("button", { name: "Create Schedule" }).click();
      const create = page.getByRole("dialog", { name: "Create New Schedule" });
      await create.waitFor();
      const createButton = create.getByRole("button", { name: "Create", exact: true });
      await expect(createButton.isDisabled()).resolves.toBe(true);
      await expect(create.getByLabel("Schedule Type").inputValue()).resolves.toBe("daily");
      await expect(create.getByLabel("Time").inputValue()).resolves.toBe("00:00");
      await expect(create.getByLabel("Full Sync (Sync all mappings)").isChecked()).resolves.toBe(true);
      await create.getByLabel("Schedule Name").fill("Nightly prices");
      await expect(createButton.isDisabled()).resolves.toBe(true);
      await create.getByLabel("Price").check();
      await createButton.click();
      await expectToast(page, MESSAGES.schedules.created);
      await create.waitFor({ state: "hidden" });

      const created = await onlySchedule(api);
      const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      expect(created).toMatchObject({ timezone: browserZone, isFullSync: true, status: "active" });
      const row = rowOf(table, "Nightly prices");
      await row.waitFor();
      const cells = row.getByRole("cell");
      await expect(cells.nth(1).textContent()).resolves.toBe("Daily at 00:00");
      await expect(cells.nth(2).textContent()).resolves.toBe("Never");
      await expect(cells.nth(3).textContent()).resolves.toBe(await shownTime(page, created.nextRun!));
      await expect(cells.nth(4).textContent()).resolves.toBe("Active");
      await expect(cells.nth(5).textContent()).resolves.toBe("Price");

      // Edit to weekly with two selected mappings.
      await row.getByRole("button", { name: "Edit schedule Nightly prices" }).click();
      const edit = page.getByRole("dialog", { name: "Edit Schedule" });
      await edit.waitFor();
      await expect(edit.getByLabel("Schedule Name").inputValue()).resolves.toBe("Nightly prices");
      await edit.getByLabel("Schedule Type").selectOption("weekly");
      await edit.getByLabel("Day of Week").selectOption({ label: "Wednesday" });
      await edit.getByLabel("Time").fill("09:30");
      await edit.getByLabel("Full Sync (Sync all mappings)").uncheck();
      const save = edit.getByRole("button", { name: "Save", exact: true });
      await expect(save.isDisabled()).resolves.toBe(true);
      const options = edit.getByRole("group", { name: "Mappings" }).getByRole("checkbox");
      await options.nth(2).waitFor();
      const labels = await Promise.all(
        [0, 1, 2].map(async (n) => (await options.nth(n).getAttribute("id"))!),
      );
      const names = await Promise.all(labels.map((id) => edit.locator(`label[for="${id}"]`).textContent()));
      for (const n of [0, 1, 2]) await options.nth(n).check();
      const selectedRows = edit.getByRole("table", { name: "Selected Mappings" }).locator("tbody tr");
      await expect.poll(() => selectedRows.count()).toBe(3);
      await edit.getByRole("button", { name: `Remove ${names[2]}` }).click();
      await expect.poll(() => selectedRows.count()).toBe(2);

      // Scrolling near the end loads the next page of the selector (20 per page).
      const { total: mappingCount } = await api.call("mappingHistory", { query: { limit: "1" } });
      expect(mappingCount).toBeGreaterThan(20);
      await options.nth(19).waitFor();
      expect(await options.count()).toBe(20);
      await edit
        .getByRole("group", { name: "Mappings" })
        .evaluate((list) => list.scrollTo({ top: list.scrollHeight }));
      await expect.poll(() => options.count()).toBeGreaterThan(20);

      // Search narrows the list (Enter searches at once).
      const firstSku = names[0]!.split(" → ")[0]!;
      const searchBox = edit.getByPlaceholder("Search mappings...");
      await searchBox.fill(firstSku);
      await searchBox.press("Enter");
      await expect.poll(() => options.count()).toBeLessThan(20);
      await expect(edit.getByRole("checkbox", { name: names[0]!, exact: true }).isChecked()).resolves.toBe(
        true,
      );

      await save.click();
      await expectToast(page, MESSAGES.schedules.updated);
      await edit.waitFor({ state: "hidden" });
      await expect.poll(() => cells.nth(1).textContent()).toBe("Weekly on day 3 at 09:30");
      const edited = await onlySchedule(api);
      expect(edited).toMatchObject({
        isFullSync: false,
        schedule: { type: "weekly", day: 3, time: "09:30" },
        timezone: browserZone,
      });
      expect(edited.mappingIds).toHaveLength(2);

      // Reopening loads the selected mappings by id.
      await row.getByRole("button", { name: "Edit schedule Nightly prices" }).click();
      await edit.waitFor();
      await expect.poll(() => selectedRows.count()).toBe(2);
      await expect(edit.getByLabel("Full Sync (Sync all mappings)").isChecked()).resolves.toBe(false);
      await page.keyboard.press("Escape");
      await edit.waitFor({ state: "hidden" });

      // Stop and start.
      await row.getByRole("button", { name: "Deactivate schedule Nightly prices" }).click();
      await expectToast(page, MESSAGES.schedules.deactivated);
      await expect.poll(() => cells.nth(3).textContent()).toBe("Not scheduled");
      await expect(cells.nth(4).textContent()).resolves.toBe("Inactive");
      await row.getByRole("button", { name: "Activate schedule Nightly prices" }).click();
      await expectToast(page, MESSAGES.schedules.activated);
      await expect.poll(() => cells.nth(4).textContent()).toBe("Active");

      // Delete with confirmation.
      await row.getByRole("button", { name: "Delete schedule Nightly prices" }).click();
      const confirm = page.getByRole("dialog", { name: "Delete Schedule" });
      await confirm
        .getByText("Are you sure you want to delete this schedule? This action cannot be undone.")
        .waitFor();
      await confirm.getByRole("button", { name: "Delete" }).click();
      await expectToast(page, MESSAGES.schedules.deleted);
      await table.getByText("No data available").waitFor();
      expect((await api.call("listSchedules")).total).toBe(0);
    } finally {
      await session.close();
    }
  }, 60_000);
});
