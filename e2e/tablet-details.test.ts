import { MESSAGES } from "@stockbridge/shared";
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { autoMap, prepareCatalogUser, shopifyPlusThrottlePerFile } from "./support/catalog-setup.ts";
import { browserPerFile, withSignedInSession } from "./support/fixtures.ts";
import { goOffline, goOnline } from "./support/network.ts";
import { apiClient, expectToast } from "./support/session.ts";

const browser = browserPerFile();
shopifyPlusThrottlePerFile();

/** WCAG's contrast ratio of two computed `rgb(...)` colours. */
function contrast(foreground: string, background: string): number {
  const luminance = (color: string) => {
    const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
      const channel = Number(part) / 255;
      return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error("not on screen");
  return found;
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** A shown toast, held by the pointer (sonner keeps it while hovered), past its entry transition. */
async function heldToast(page: Page, type: string): Promise<Locator> {
  const toast = page.locator(`[data-sonner-toast][data-type="${type}"][data-mounted="true"]`).first();
  await toast.hover();
  await toast.evaluate((element) =>
    Promise.all(element.getAnimations().map((animation) => animation.finished.catch(() => undefined))),
  );
  return toast;
}

describe("Tablet details", () => {
  it("names the avatar button with the initials it shows", async () => {
    await withSignedInSession(browser(), { name: "Erin Example", touch: true }, async ({ page }) => {
      await page.goto("/dashboard");
      const avatar = page.getByRole("button", { name: /Account menu/ });
      await avatar.waitFor();
      const shown = (await avatar.textContent())?.trim();
      expect(shown).toBe("EE");
      // The accessible name as assistive technology reads it starts with the letters on screen.
      expect(await avatar.ariaSnapshot()).toBe(`- button "${shown}, Account menu"`);
    });
  });

  it("shows success toasts at 4.5:1 or more, bottom right, clear of the title and the drawer's header", async () => {
    await withSignedInSession(
      browser(),
      { width: 768, height: 1024, touch: true, serviceWorkers: "block" },
      async ({ page, appUrl, token }) => {
        await prepareCatalogUser(apiClient(appUrl, token), inject("sandboxUrl"));
        await page.goto("/settings");
        await page.getByRole("tab", { name: "Mapping" }).click();
        const card = page.getByRole("region", { name: "Price Mapping" });
        await card.getByLabel("Sync Price").check();
        await card.getByRole("button", { name: "Save Price Mapping" }).click();
        await expectToast(page, MESSAGES.settings.priceSaved);

        const toast = await heldToast(page, "success");
        const colors = await toast.evaluate((element) => {
          const style = getComputedStyle(element);
          return { color: style.color, background: style.backgroundColor };
        });
        expect(contrast(colors.color, colors.background)).toBeGreaterThanOrEqual(4.5);

        // Its close button is a 44 px target on a touch screen.
        const close = await box(toast.locator("[data-close-button]"));
        expect([close.width, close.height]).toEqual([44, 44]);

        const toastBox = await box(toast);
        expect(overlaps(toastBox, await box(page.getByRole("heading", { level: 1 })))).toBe(false);
        expect(overlaps(toastBox, await box(page.locator("header").first()))).toBe(false);
        // The drawer opened without moving the pointer off the toast, which stays.
        await page.getByRole("button", { name: "Open navigation" }).dispatchEvent("click");
        const drawer = page.getByRole("dialog");
        await drawer.getByRole("button", { name: "Close navigation" }).waitFor();
        const drawerHeader = drawer.getByRole("button", { name: "Close navigation" }).locator("..");
        expect(overlaps(await box(toast), await box(drawerHeader))).toBe(false);
      },
    );
  });

  it("keeps Logout above the offline banner, in the sidebar and in the drawer", async () => {
    await withSignedInSession(browser(), { width: 1280, height: 800 }, async ({ page, context }) => {
      await page.goto("/dashboard");
      const logout = page.locator("aside").getByRole("button", { name: "Logout" });
      await logout.waitFor();
      await goOffline(context);
      // By its role attribute: while the drawer is open the rest of the page is inert to assistive
      // technology, but still on screen.
      const banner = page.locator('[role="status"]', { hasText: "Saved lists are still shown" });
      await banner.waitFor();
      await expect
        .poll(async () => (await box(logout)).y + (await box(logout)).height)
        .toBeLessThanOrEqual((await box(banner)).y);

      await page.setViewportSize({ width: 768, height: 1024 });
      await page.getByRole("button", { name: "Open navigation" }).click();
      const inDrawer = page.getByRole("dialog").getByRole("button", { name: "Logout" });
      await inDrawer.waitFor();
      await expect
        .poll(async () => (await box(inDrawer)).y + (await box(inDrawer)).height)
        .toBeLessThanOrEqual((await box(banner)).y);
      await goOnline(context);
    });
  });

  it("takes the schedule's time as 24-hour HH:MM, as the list shows it", async () => {
    await withSignedInSession(
      browser(),
      { width: 768, height: 1024, touch: true, serviceWorkers: "block" },
      async ({ page, appUrl, token }) => {
        const api = apiClient(appUrl, token);
        await prepareCatalogUser(api, inject("sandboxUrl"));
        await autoMap(api);
        await page.goto("/mapping-schedule");
        await page.getByRole("button", { name: "Create Schedule" }).click();
        const dialog = page.getByRole("dialog", { name: "Create New Schedule" });
        await dialog.getByLabel("Schedule Name").fill("Evening stock");
        await dialog.getByLabel("Quantity").check();
        // A native time field would show '09:30 PM' in this en-US browser and refuse '2130'.
        const time = dialog.getByLabel("Time");
        expect(await time.getAttribute("type")).toBe("text");
        await time.fill("2130");
        await time.blur();
        expect(await time.inputValue()).toBe("21:30");
        await dialog.getByRole("button", { name: "Create", exact: true }).click();
        await dialog.waitFor({ state: "hidden" });
        const row = page.getByRole("table", { name: "Mapping schedules" }).locator("tbody tr", {
          hasText: "Evening stock",
        });
        await expect(row.getByRole("cell").nth(1).textContent()).resolves.toBe("Daily at 21:30");
      },
    );
  });

  it("shows prices with the store's currency symbol and keeps '-' for a service's quantities after a sync", async () => {
    await withSignedInSession(
      browser(),
      { width: 1024, height: 768, touch: true, serviceWorkers: "block" },
      async ({ page, appUrl, token }) => {
        const api = apiClient(appUrl, token);
        await prepareCatalogUser(api, inject("sandboxUrl"));
        // The connection tests read the currencies (USD in the sandbox).
        await Promise.all([api.call("testShopify"), api.call("testAcumatica")]);
        await autoMap(api);
        const { mappings } = await api.call("mappingHistory", { query: { search: "SRV-", limit: "10" } });
        const service = mappings.find((mapping) => mapping.acumaticaDetails.sku.startsWith("SRV-"));
        if (!service) throw new Error("The sandbox catalog maps no SRV- service item");
        const sku = service.acumaticaDetails.sku;
        await api.call("syncMapping", {
          params: { id: service._id },
          body: { syncOptions: { price: true, quantity: true } },
        });
        const { products } = await api.call("shopifyProducts", {
          query: { search: service.shopifyDetails.sku },
        });
        const price = products.find((product) => product.sku === service.shopifyDetails.sku)!.price;

        await page.goto("/products/shopify");
        await page
          .getByRole("searchbox", { name: "Search Shopify products" })
          .fill(service.shopifyDetails.sku);
        const shopifyRow = page
          .getByRole("table", { name: "Shopify products" })
          .locator("tbody tr", { hasText: service.shopifyDetails.sku });
        await expect
          .poll(() => shopifyRow.getByRole("cell").nth(2).textContent())
          .toBe(`$${price.toFixed(2)}`);

        await page.goto("/products/acumatica");
        await page.getByRole("searchbox", { name: "Search Acumatica products" }).fill(sku);
        const erpRow = page
          .getByRole("table", { name: "Acumatica products" })
          .locator("tbody tr", { hasText: sku })
          .first();
        await erpRow.waitFor();
        const cells = (await erpRow.getByRole("cell").allTextContents()).map((text) => text.trim());
        // #, SKU, Price, MSRP, Available, On Hand, Available for Shipping, Type
        expect(cells[2]).toMatch(/^\$\d+\.\d{2}$/);
        expect(cells.slice(4, 7)).toEqual(["-", "-", "-"]);
        expect(cells[7]).toBe("Non-Stock");
      },
    );
  });

  it("opens the Dashboard with session, page code and data requested together", async () => {
    await withSignedInSession(
      browser(),
      { width: 1024, height: 768, touch: true, serviceWorkers: "block" },
      async ({ page, appUrl, token }) => {
        const api = apiClient(appUrl, token);
        await prepareCatalogUser(api, inject("sandboxUrl"));
        await Promise.all([api.call("testShopify"), api.call("testAcumatica")]);
        await autoMap(api);

        // Every request's start and end, in the order the browser reports them.
        const events: string[] = [];
        const name = (url: string) => {
          const path = new URL(url).pathname;
          if (path === "/api/auth/refresh") return "session";
          if (path === "/api/dashboard") return "data";
          if (/^\/assets\/dashboard-[\w-]+\.js$/.test(path)) return "code";
          return null;
        };
        page.on("request", (request) => {
          const which = name(request.url());
          if (which) events.push(`start ${which}`);
        });
        page.on("requestfinished", (request) => {
          const which = name(request.url());
          if (which) events.push(`end ${which}`);
        });

        await page.goto("/dashboard");
        await page.getByRole("region", { name: "Last run" }).waitFor();
        // The page's code and its data were asked for before the session's answer came back: none
        // waited for another.
        const sessionEnd = events.indexOf("end session");
        expect(sessionEnd, events.join(", ")).toBeGreaterThan(-1);
        expect(events.indexOf("start code"), events.join(", ")).toBeGreaterThan(-1);
        expect(events.indexOf("start code"), events.join(", ")).toBeLessThan(sessionEnd);
        expect(events.indexOf("start data"), events.join(", ")).toBeGreaterThan(-1);
        expect(events.indexOf("start data"), events.join(", ")).toBeLessThan(sessionEnd);
        // One GET /dashboard serves the checklist's counts and the overview.
        expect(events.filter((event) => event === "start data")).toHaveLength(1);
      },
    );
  });
});
