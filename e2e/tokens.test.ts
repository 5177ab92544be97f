import { ApiError, MESSAGES } from "@stockbridge/shared";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserPerFile, withSignedInSession } from "./support/fixtures.ts";
import { apiClient, expectToast, type SignedInSession } from "./support/session.ts";

const browser = browserPerFile();

function signedIn(
  options: { width?: number; height?: number },
  body: (session: SignedInSession) => Promise<void>,
): Promise<void> {
  return withSignedInSession(browser(), { name: "Token Owner", serviceWorkers: "block", ...options }, body);
}

/** Opens Settings on its API Tokens tab (the tab after Connections, Mapping and Notifications). */
async function openTokensTab(page: Page) {
  await page.goto("/settings");
  const tabs = page.getByRole("tablist", { name: "Settings" }).getByRole("tab");
  await tabs.filter({ hasText: "API Tokens" }).waitFor();
  expect(await tabs.allTextContents()).toEqual(["Connections", "Mapping", "Notifications", "API Tokens"]);
  await page.getByRole("tab", { name: "API Tokens" }).click();
  return page.getByRole("region", { name: "API Tokens" });
}

describe("Settings > API Tokens", () => {
  it("creates a token from the keyboard, shows and copies it once, lists its last use, and revokes it by name", async () => {
    await signedIn({}, async ({ page, context, appUrl }) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: appUrl });
      const region = await openTokensTab(page);
      await region.getByText("No API tokens yet.").waitFor();

      await region.getByRole("button", { name: "Create token" }).click();
      const create = page.getByRole("dialog", { name: "Create API token" });
      await create.getByLabel("Name").fill("Nightly cron");
      await create.getByLabel("Expires").selectOption({ label: "30 days" });
      await create.getByLabel("Name").press("Enter");

      const shown = page.getByRole("dialog", { name: "API token created" });
      await shown.getByText("Copy this token now. It will not be shown again.").waitFor();
      const token = await shown.getByLabel("Token “Nightly cron”").inputValue();
      expect(token).toMatch(/^sbk_[A-Za-z0-9_-]{43}$/);
      await shown.getByRole("button", { name: "Copy" }).click();
      await shown.getByRole("button", { name: "Copied" }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
      await shown.getByRole("button", { name: "Done" }).click();
      await shown.waitFor({ state: "detached" });

      const row = region.getByRole("listitem").filter({ hasText: "Nightly cron" });
      await row.getByText(`${token.slice(0, 12)}…`).waitFor();
      expect(await row.textContent()).toContain("Last usedNever");
      expect(await page.content()).not.toContain(token.slice(12));

      // The token works as a Bearer token; the list then shows when.
      const bearer = apiClient(appUrl, token);
      await bearer.call("me");
      await page.reload();
      await page.getByRole("tab", { name: "API Tokens" }).click();
      await row.waitFor();
      expect(await row.textContent()).not.toContain("Last usedNever");

      await row.getByRole("button", { name: "Revoke Nightly cron" }).click();
      const confirm = page.getByRole("dialog", { name: "Revoke API token" });
      const revoke = confirm.getByRole("button", { name: "Revoke" });
      expect(await revoke.isDisabled()).toBe(true);
      await confirm.getByLabel('Type "Nightly cron" to confirm').fill("Nightly");
      expect(await revoke.isDisabled()).toBe(true);
      await confirm.getByLabel('Type "Nightly cron" to confirm').fill("Nightly cron");
      await revoke.click();
      await expectToast(page, MESSAGES.tokens.revoked);
      await region.getByText("No API tokens yet.").waitFor();

      const refused = await bearer.call("me").catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).status).toBe(401);
    });
  });

  it("names the rule for a name it refuses, and creates nothing", async () => {
    await signedIn({}, async ({ page, appUrl, token }) => {
      const region = await openTokensTab(page);
      await region.getByRole("button", { name: "Create token" }).click();
      const create = page.getByRole("dialog", { name: "Create API token" });
      await create.getByLabel("Name").fill("   ");
      await create.getByText("name is required").waitFor();
      expect(await create.getByRole("button", { name: "Create token" }).isDisabled()).toBe(true);
      await create.getByLabel("Name").press("Escape");
      await create.waitFor({ state: "detached" });
      expect(await apiClient(appUrl, token).call("listTokens")).toEqual([]);
    });
  });

  it("fits a phone's width: the list and its Revoke button without sideways scrolling", async () => {
    await signedIn({ width: 375, height: 740 }, async ({ page, appUrl, token }) => {
      await apiClient(appUrl, token).call("createToken", {
        body: { name: "A token with a rather long name for a small screen", expiresInDays: 7 },
      });
      const region = await openTokensTab(page);
      const revoke = region.getByRole("button", { name: /^Revoke A token/ });
      await revoke.waitFor();
      const box = await revoke.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(375);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    });
  });
});
