import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserPerFile, withSignedInSession } from "./support/fixtures.ts";
import { expectPath, type SignedInSession } from "./support/session.ts";

const browser = browserPerFile();

/** The shell's layout is under test, not the service worker: keep it out of the way. */
function signedIn(width: number, body: (session: SignedInSession) => Promise<void>): Promise<void> {
  return withSignedInSession(browser(), { width, name: "Shell Tester", serviceWorkers: "block" }, body);
}

async function openDashboard(page: Page): Promise<void> {
  await page.goto("/dashboard");
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
}

const TOP_LEVEL = [
  "Dashboard",
  "Mapping",
  "Mapping Schedule",
  "Execution History",
  "Subscription",
  "Settings",
];

/** An entry's accessible name; gated entries add a note for users without a subscription. */
function entry(label: string): RegExp {
  return new RegExp(`^${label}( \\(Requires a subscription\\))?$`);
}

describe("app shell at tablet width (768 px)", () => {
  it("hides the sidebar and offers a drawer with every entry that closes after navigation", async () => {
    await signedIn(768, async ({ page }) => {
      await openDashboard(page);
      await expect(page.locator("aside").isVisible()).resolves.toBe(false);

      const opener = page.getByRole("button", { name: "Open navigation" });
      await opener.click();
      const drawer = page.getByRole("dialog");
      await drawer.waitFor();
      const nav = drawer.getByRole("navigation", { name: "Main" });
      for (const label of TOP_LEVEL) {
        await nav.getByRole("link", { name: entry(label) }).waitFor();
      }
      await nav.getByRole("button", { name: "Logout" }).waitFor();
      const products = nav.getByRole("button", { name: entry("Products") });
      await expect(products.getAttribute("aria-expanded")).resolves.toBe("false");
      await products.click();
      await expect(products.getAttribute("aria-expanded")).resolves.toBe("true");
      await nav.getByRole("link", { name: entry("Shopify") }).waitFor();
      await nav.getByRole("link", { name: entry("Acumatica") }).waitFor();

      // Esc closes it too, and it opens again.
      await page.keyboard.press("Escape");
      await drawer.waitFor({ state: "detached" });
      await opener.click();
      await drawer.waitFor();

      await nav.getByRole("link", { name: "Settings", exact: true }).click();
      await expectPath(page, "/settings");
      await drawer.waitFor({ state: "detached" });
      await expect(opener.isVisible()).resolves.toBe(true);
    });
  });
});

describe("app shell at desktop width (1280 px)", () => {
  it("shows a 280 px sidebar and a 64 px top bar with the brand", async () => {
    await signedIn(1280, async ({ page }) => {
      await openDashboard(page);
      await expect(page.getByRole("button", { name: "Open navigation" }).isVisible()).resolves.toBe(false);
      const sidebar = await page.locator("aside").boundingBox();
      expect(sidebar?.width).toBe(280);
      const header = page.getByRole("banner");
      expect((await header.boundingBox())?.height).toBe(64);
      const home = header.getByRole("link", { name: "Stockbridge" });
      await home.waitFor();
      await expect(
        home.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      ).resolves.toBe(true);

      const nav = page.locator("aside").getByRole("navigation", { name: "Main" });
      for (const label of TOP_LEVEL) {
        await nav.getByRole("link", { name: entry(label) }).waitFor();
      }
      await nav.getByRole("link", { name: "Settings", exact: true }).click();
      await expectPath(page, "/settings");
      await home.click();
      await expectPath(page, "/dashboard");
    });
  });

  it("shows the brand letter when the logo cannot be loaded", async () => {
    await signedIn(1280, async ({ page }) => {
      await page.route("**/logo.svg", (route) => route.abort());
      await openDashboard(page);
      const home = page.getByRole("banner").getByRole("link", { name: "Stockbridge" });
      await home.getByText("S", { exact: true }).waitFor();
      await expect(home.locator("img").count()).resolves.toBe(0);
    });
  });

  it("has an avatar menu with the user's name and email, Profile, Settings and Logout", async () => {
    await signedIn(1280, async ({ page, user }) => {
      await openDashboard(page);
      await page.getByRole("button", { name: "Account menu" }).click();
      const menu = page.getByRole("menu");
      await menu.getByText("Shell Tester", { exact: true }).waitFor();
      await menu.getByText(user.email, { exact: true }).waitFor();
      const items = await menu.getByRole("menuitem").allInnerTexts();
      expect(items.map((text) => text.trim())).toEqual(["Profile", "Settings", "Logout"]);

      await menu.getByRole("menuitem", { name: "Profile" }).click();
      await expectPath(page, "/profile");
      await page.getByText("Coming soon....").waitFor();
      await page.getByRole("button", { name: "Account menu" }).click();
      await page.getByRole("menuitem", { name: "Settings" }).click();
      await expectPath(page, "/settings");
    });
  });
});
