import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { MESSAGES } from "@stockbridge/shared";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import {
  autoMap,
  findSyncableMapping,
  prepareCatalogUser,
  setErpQuantity,
  shopifyPlusThrottlePerFile,
} from "./support/catalog-setup.ts";
import { browserPerFile, withSignedInSession } from "./support/fixtures.ts";
import { apiClient, expectToast, openSignedInSession } from "./support/session.ts";

const browser = browserPerFile();
shopifyPlusThrottlePerFile();

/** Shopify refuses a total quantity above 1,000,000,000: an ERP quantity above it fails that one mapping. */
const TOO_MANY_PER_WAREHOUSE = 400_000_000;

function bell(page: Page) {
  return page.getByRole("banner").getByRole("button", { name: /^Notifications/ });
}

describe("the notification bell", () => {
  it("counts unread alerts, opens from the keyboard, marks one read by opening its run, then all", async () => {
    const sandboxUrl = inject("sandboxUrl");
    const session = await openSignedInSession(browser(), inject("appUrl"), {
      name: "Bell Tester",
      serviceWorkers: "block",
    });
    const api = apiClient(session.appUrl, session.token);
    let failing: string | null = null;
    try {
      await prepareCatalogUser(api, sandboxUrl);
      await autoMap(api);
      const bad = await findSyncableMapping(api, sandboxUrl);
      failing = bad.mapping.acumaticaDetails.sku;
      await setErpQuantity(sandboxUrl, failing, TOO_MANY_PER_WAREHOUSE);
      const runs: string[] = [];
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const run = await api.call("syncMapping", {
          params: { id: bad.mapping._id },
          body: { syncOptions: { price: false, quantity: true } },
        });
        expect(run.results[0]?.outcome).toBe("failed");
        runs.push(run.historyId!);
      }

      const { page } = session;
      await page.goto("/dashboard");
      await page.getByRole("heading", { name: "Dashboard" }).waitFor();
      await bell(page)
        .and(page.getByRole("button", { name: "Notifications, 2 unread" }))
        .waitFor();
      expect(await page.getByTestId("unread-badge").textContent()).toBe("2");

      // Keyboard: Enter opens the panel, Escape closes it and gives focus back to the bell.
      await bell(page).focus();
      await page.keyboard.press("Enter");
      const list = page.getByRole("list", { name: "Notifications" });
      const items = list.getByRole("link");
      await items.nth(1).waitFor();
      await expect(items.allTextContents()).resolves.toEqual([
        expect.stringContaining("Sync failed: Manual sync"),
        expect.stringContaining("Sync failed: Manual sync"),
      ]);
      expect(await items.first().getAttribute("aria-label")).toBe("Unread: Sync failed: Manual sync");
      await page.keyboard.press("Escape");
      await list.waitFor({ state: "detached" });
      await expect(bell(page).evaluate((element) => element === document.activeElement)).resolves.toBe(true);

      // Opening the newest goes to its run's details and marks it read.
      await page.keyboard.press("Enter");
      await items.first().focus();
      await page.keyboard.press("Enter");
      await page.waitForURL(
        (url) => url.pathname === "/execution-history" && url.search === `?entry=${runs[1]}`,
      );
      const details = page.getByRole("dialog", { name: "Execution Details - Unknown Schedule" });
      await details.getByRole("heading", { name: "Failed Mappings" }).waitFor();
      // Escape closes the dialog once focus is in it (the dialog moves it there as it opens; on a
      // loaded machine the key could arrive a frame before, and the dialog stayed open).
      await expect
        .poll(() => details.evaluate((dialog) => dialog.contains(document.activeElement)))
        .toBe(true);
      await page.keyboard.press("Escape");
      await details.waitFor({ state: "detached" });
      await page.waitForURL((url) => url.search === "");
      await page.getByRole("button", { name: "Notifications, 1 unread" }).waitFor();

      await bell(page).click();
      await page.getByRole("button", { name: "Mark all as read" }).click();
      await page.getByRole("button", { name: "Notifications", exact: true }).waitFor();
      await expect(page.getByTestId("unread-badge").count()).resolves.toBe(0);
      expect(await items.first().getAttribute("aria-label")).toBe("Sync failed: Manual sync");
      expect((await api.call("listNotifications")).unread).toBe(0);

      // Both alerts went out by email too (defaults: failures, to the account's email).
      await page.keyboard.press("Escape");
      await page.goto("/settings");
      await page.getByRole("tab", { name: "Notifications" }).click();
      const deliveries = page.getByRole("list", { name: "Deliveries" }).getByRole("listitem");
      await deliveries.nth(1).waitFor();
      for (const text of await deliveries.allTextContents()) {
        expect(text).toContain("Sync failed: Manual sync");
        expect(text).toContain(session.identity.email);
        expect(text).toMatch(/Pending|Delivered/);
      }
    } finally {
      // The sandbox is shared: leave the item with an ordinary quantity again.
      if (failing) await setErpQuantity(sandboxUrl, failing, 10);
      await session.close();
    }
  });

  it("fits a phone's width and opens with a tap", async () => {
    await withSignedInSession(
      browser(),
      { width: 375, height: 740, name: "Phone Bell", serviceWorkers: "block" },
      async ({ page }) => {
        await page.goto("/dashboard");
        await bell(page).click();
        const empty = page.getByText("No notifications yet.", { exact: false });
        await empty.waitFor();
        const box = await empty.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
        const size = await bell(page).boundingBox();
        expect(size && size.width >= 40 && size.height >= 40).toBe(true);
      },
    );
  });
});

/** A loopback webhook receiver (the edge runs in sandbox mode, where private addresses are allowed). */
async function startReceiver() {
  const server = createServer((_request, response) => response.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("Settings > Notifications", () => {
  it("starts from the defaults, names a refused rule, saves, and shows the signing secret once", async () => {
    const receiver = await startReceiver();
    try {
      await withSignedInSession(
        browser(),
        { name: "Alert Settings", serviceWorkers: "block" },
        async ({ page, identity, appUrl, token }) => {
          await page.goto("/settings");
          const tabs = page.getByRole("tablist", { name: "Settings" }).getByRole("tab");
          await tabs.filter({ hasText: "API Tokens" }).waitFor();
          expect(await tabs.allTextContents()).toEqual([
            "Connections",
            "Mapping",
            "Notifications",
            "API Tokens",
          ]);
          await page.getByRole("tab", { name: "Notifications" }).click();
          const form = page.getByRole("region", { name: "Notifications", exact: true });
          const email = form.getByLabel("Email");
          await expect.poll(() => email.inputValue()).toBe(identity.email);
          const checked = async () =>
            Promise.all(
              ["Failed runs", "Runs with failures", "Missed schedules", "Held runs"].map((label) =>
                form.getByLabel(label).isChecked(),
              ),
            );
          expect(await checked()).toEqual([true, false, true, false]);

          const webhook = form.getByLabel("Webhook URL");
          await webhook.fill("ftp://hooks.example.com");
          await form.getByText("webhookUrl must be an http:// or https:// URL").waitFor();
          await webhook.fill("http://169.254.169.254/hooks");
          await form.getByRole("button", { name: "Save Notification Settings" }).click();
          await expectToast(page, "webhookUrl is not allowed");
          await form.getByText(/^webhookUrl is not allowed: 169\.254\.169\.254/).waitFor();

          await webhook.fill(receiver.url);
          await form.getByLabel("Runs with failures").check();
          await form.getByRole("button", { name: "Save Notification Settings" }).click();
          await expectToast(page, MESSAGES.notifications.settingsSaved);
          await page.reload();
          await page.getByRole("tab", { name: "Notifications" }).click();
          await expect.poll(() => form.getByLabel("Webhook URL").inputValue()).toBe(receiver.url);
          expect(await checked()).toEqual([true, true, true, false]);

          const secretCard = page.getByRole("region", { name: "Webhook signing secret" });
          await secretCard.getByText("No secret yet: webhooks wait until one is created.").waitFor();
          await secretCard.getByRole("button", { name: "Create secret" }).click();
          const shown = page.getByRole("dialog", { name: "Webhook signing secret" });
          await shown.getByText("Copy this secret now. It will not be shown again.").waitFor();
          const secret = await shown.getByLabel("Secret").inputValue();
          expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
          await shown.getByRole("button", { name: "Done" }).click();
          await shown.waitFor({ state: "detached" });
          await secretCard.getByRole("button", { name: "Rotate secret" }).waitFor();
          await secretCard.getByText(/^Created /).waitFor();
          expect(await page.content()).not.toContain(secret.slice(6));
          expect(await apiClient(appUrl, token).call("notificationSettings")).toMatchObject({
            webhookUrl: receiver.url,
            onPartial: true,
            webhookSecretSet: true,
          });
          await page.getByRole("region", { name: "Deliveries" }).getByText("No deliveries yet.").waitFor();
        },
      );
    } finally {
      await receiver.close();
    }
  });
});
