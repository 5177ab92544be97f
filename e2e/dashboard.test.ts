import type { ApiClient, Dashboard } from "@stockbridge/shared";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./support/browser.ts";
import { autoMap, prepareCatalogUser, waitForJob } from "./support/catalog-setup.ts";
import { apiClient, expectPath, openSignedInSession } from "./support/session.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Subscribed, both connections verified, catalogs pulled, auto-mapped: every checklist step done. */
async function readyStore(api: ApiClient): Promise<void> {
  await prepareCatalogUser(api, inject("sandboxUrl"));
  await Promise.all([api.call("testShopify"), api.call("testAcumatica")]);
  await autoMap(api);
}

/** The last 30 calendar days in the browser's zone, oldest first, as YYYY-MM-DD. */
function browserDays(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const days: string[] = [];
    const today = new Date();
    for (let back = 29; back >= 0; back -= 1) {
      const day = new Date(today.getFullYear(), today.getMonth(), today.getDate() - back);
      const pad = (n: number) => String(n).padStart(2, "0");
      days.push(`${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`);
    }
    return days;
  });
}

/** The value shown beside a figure's label in one of the dashboard's cards. */
function figure(page: Page, region: string, label: string) {
  return page
    .getByRole("region", { name: region })
    .locator(`dt:text-is("${label}")`)
    .locator("xpath=following-sibling::dd[1]");
}

describe("Dashboard after the checklist", () => {
  it("shows the last run, next run, failures, counts and 30 days of runs, and links the run's details", async () => {
    const session = await openSignedInSession(browser, inject("appUrl"), {
      name: "Dashboard Reader",
      serviceWorkers: "block",
    });
    try {
      const { page } = session;
      const api = apiClient(session.appUrl, session.token);
      await readyStore(api);

      // Before any run: the overview in place of the checklist, with empty figures.
      await page.goto("/dashboard");
      const lastRun = page.getByRole("region", { name: "Last run" });
      await lastRun.getByText("No runs yet.").waitFor();
      await page.getByText("Getting started").waitFor({ state: "detached" });
      const chart = page
        .getByRole("region", { name: "Last 30 days" })
        .getByRole("img", { name: "Items synced, failed and skipped per day" });
      await expect.poll(() => chart.locator("desc").textContent()).toBe("No runs in the last 30 days.");

      // A sync of three mappings and a nightly schedule.
      const { mappings } = await api.call("mappingHistory", { query: { limit: "3" } });
      const { job } = await api.call("syncMappings", {
        body: { mappingIds: mappings.map((m) => m._id), syncOptions: { price: true, quantity: true } },
      });
      await waitForJob(api, job);
      const run = (await api.call("executionHistory")).histories[0]!;
      const schedule = await api.call("createSchedule", {
        body: {
          name: "Nightly prices",
          schedule: { type: "daily", time: "02:30", day: null, interval: null, minuteInterval: null },
          timezone: "UTC",
          mappingIds: [],
          isFullSync: true,
          syncOptions: { price: true, quantity: false },
          status: "active",
        },
      });
      const timezone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      const figures: Dashboard = await api.call("dashboard", { query: { timezone } });
      expect(figures.lastRun?._id).toBe(run._id);

      await page.reload();
      await lastRun.getByText("Manual sync").waitFor();
      await expect(figure(page, "Last run", "Synced").textContent()).resolves.toBe(String(run.successCount));
      await expect(figure(page, "Last run", "Failed").textContent()).resolves.toBe(String(run.failureCount));
      await expect(figure(page, "Last run", "Skipped").textContent()).resolves.toBe(String(run.skippedCount));
      await page.getByRole("region", { name: "Next run" }).getByText(schedule.name).waitFor();
      const failures = figures.failures.last24Hours.runs;
      await expect(figure(page, "Runs with failures", "Last 24 hours").textContent()).resolves.toBe(
        `${failures} run${failures === 1 ? "" : "s"}`,
      );
      await expect(figure(page, "Catalogs", "Shopify variants").textContent()).resolves.toBe(
        figures.catalog.shopifyVariants.toLocaleString("en-US"),
      );
      await expect(figure(page, "Catalogs", "Acumatica items").textContent()).resolves.toBe(
        figures.catalog.acumaticaItems.toLocaleString("en-US"),
      );
      await expect(figure(page, "Mappings", "Mapped").textContent()).resolves.toBe(
        figures.mappings.mapped.toLocaleString("en-US"),
      );
      await page.getByRole("region", { name: "Mappings" }).getByText("of 500 on your plan").waitFor();

      // The chart: the browser's last 30 days, today's bar with the run.
      const days = chart.locator("g[data-date]");
      await expect.poll(() => days.count()).toBe(30);
      const dates = await days.evaluateAll((groups) => groups.map((g) => g.getAttribute("data-date")));
      expect(dates).toEqual(await browserDays(page));
      const today = days.last();
      await expect(today.getAttribute("data-runs")).resolves.toBe("1");
      await expect(today.locator("title").textContent()).resolves.toMatch(
        new RegExp(
          `: ${run.successCount} synced, ${run.failureCount} failed, ${run.skippedCount} skipped in 1 run$`,
        ),
      );
      expect(await today.locator("rect[data-series]").count()).toBeGreaterThan(0);

      // The last run's link opens its details in Execution History.
      await lastRun.getByRole("link", { name: "View details" }).click();
      await expectPath(page, "/execution-history");
      await page.getByRole("dialog", { name: "Execution Details - Unknown Schedule" }).waitFor();
    } finally {
      await session.close();
    }
  });

  it("lays the cards out in two columns on a tablet and one on a phone, the chart following the width", async () => {
    const session = await openSignedInSession(browser, inject("appUrl"), {
      name: "Dashboard Tablet",
      serviceWorkers: "block",
      width: 820,
      height: 1180,
    });
    try {
      const { page } = session;
      await readyStore(apiClient(session.appUrl, session.token));
      await page.goto("/dashboard");
      const chart = page
        .getByRole("region", { name: "Last 30 days" })
        .getByRole("img", { name: "Items synced, failed and skipped per day" });
      await chart.waitFor();
      const box = (name: string) => page.getByRole("region", { name }).boundingBox();
      // Tablet: Last run and Next run side by side.
      expect((await box("Next run"))!.y).toBe((await box("Last run"))!.y);

      // Turned into a phone's width: one column, no sideways scrolling, the chart within the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await expect.poll(async () => (await box("Next run"))!.y).toBeGreaterThan((await box("Last run"))!.y);
      await expect
        .poll(async () => {
          const chartBox = (await chart.boundingBox())!;
          return chartBox.x + chartBox.width;
        })
        .toBeLessThanOrEqual(390);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    } finally {
      await session.close();
    }
  });
});
