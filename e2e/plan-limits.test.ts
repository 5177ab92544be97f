import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./support/browser.ts";
import { apiClient, openSignedInSession } from "./support/session.ts";
import { findPlan, subscribeThroughCheckout } from "./support/subscribe.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const STARTER_TEXT =
  "Your Starter plan includes daily schedules; upgrade to Growth for schedules every 15 minutes.";

describe("Schedule form and the plan", () => {
  it("offers a Starter subscriber only the plan's frequencies, shows why a downgraded schedule does not run, and the API's 403 on saving it", async () => {
    const session = await openSignedInSession(browser, inject("appUrl"), {
      name: "Plan Downgrader",
      serviceWorkers: "block",
    });
    try {
      const { page } = session;
      const api = apiClient(session.appUrl, session.token);
      await subscribeThroughCheckout(api, inject("sandboxUrl"), { plan: "Growth" });
      const quarterly = await api.call("createSchedule", {
        body: {
          name: "Quarter-hourly stock",
          schedule: { type: "minutely", minuteInterval: 15, time: null, day: null, interval: null },
          timezone: "UTC",
          mappingIds: [],
          isFullSync: true,
          syncOptions: { price: false, quantity: true },
          status: "active",
        },
      });
      const starter = await findPlan(api, "Starter");
      await api.call("updateSubscription", { body: { priceId: starter.stripePriceId } });

      await page.goto("/mapping-schedule");
      const row = page.getByRole("table", { name: "Mapping schedules" }).locator("tbody tr", {
        hasText: quarterly.name,
      });
      const nextRun = row.getByRole("cell").nth(3);
      await nextRun.getByText(`Not running: ${STARTER_TEXT}`).waitFor();
      await expect(nextRun.textContent()).resolves.toContain("Not scheduled");

      // A new schedule: minutely and hourly are offered disabled, with the plan's reason.
      await page.getByRole("button", { name: "Create Schedule" }).click();
      const create = page.getByRole("dialog", { name: "Create New Schedule" });
      const type = create.getByLabel("Schedule Type");
      await type.waitFor();
      const options = await type
        .locator("option")
        .evaluateAll((all) =>
          all.map((option) => [option.getAttribute("value"), option.hasAttribute("disabled")]),
        );
      expect(options).toEqual([
        ["minutely", true],
        ["hourly", true],
        ["daily", false],
        ["weekly", false],
        ["monthly", false],
      ]);
      await create.getByText(STARTER_TEXT).waitFor();
      await create.getByRole("button", { name: "Cancel" }).click();
      await create.waitFor({ state: "hidden" });

      // The downgraded schedule's editor says so, and saving it shows the API's 403 text.
      await row.getByRole("button", { name: `Edit schedule ${quarterly.name}` }).click();
      const edit = page.getByRole("dialog", { name: "Edit Schedule" });
      await edit.getByRole("note").getByText(STARTER_TEXT).waitFor();
      await edit.getByRole("button", { name: "Save", exact: true }).click();
      await expect.poll(() => edit.getByRole("alert").textContent()).toBe(STARTER_TEXT);
      expect((await api.call("listSchedules")).schedules[0]?.schedule.type).toBe("minutely");
    } finally {
      await session.close();
    }
  });
});
