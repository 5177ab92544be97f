import { MESSAGES } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { openSession } from "./support/browser.ts";
import { browserPerFile, withSignedInSession } from "./support/fixtures.ts";
import { apiClient, expectPath, expectToast, type SignedInSession, storedToken } from "./support/session.ts";

const browser = browserPerFile();

function signedIn(body: (session: SignedInSession) => Promise<void>): Promise<void> {
  return withSignedInSession(browser(), {}, body);
}

describe("route guards", () => {
  it("sends a visitor to /login, remembering where they were going", async () => {
    const session = await openSession(browser());
    try {
      await session.page.goto("/settings");
      await expectPath(session.page, "/login");
      expect(new URL(session.page.url()).searchParams.get("redirect")).toBe("/settings");
      await session.page.getByRole("heading", { name: "Sign in" }).waitFor();

      // A gated page also says why.
      await session.page.goto("/mapping");
      await expectToast(session.page, MESSAGES.access.loginRequired);
      await expectPath(session.page, "/login");
      expect(new URL(session.page.url()).searchParams.get("redirect")).toBe("/mapping");
    } finally {
      await session.close();
    }
  });

  it("sends a signed-in user at /login, /register, / or an unknown path to the dashboard", async () => {
    await signedIn(async ({ page }) => {
      for (const path of ["/login", "/register", "/", "/no/such/page"]) {
        await page.goto(path);
        await expectPath(page, "/dashboard");
        await page.getByRole("heading", { name: "Dashboard" }).waitFor();
      }
    });
  });

  it("sends a user without a subscription from a gated page to /subscription with a warning", async () => {
    await signedIn(async ({ page }) => {
      await page.goto("/execution-history");
      await expectToast(page, MESSAGES.access.subscriptionRequired);
      await expectPath(page, "/subscription");
    });
  });

  it("ends the session on a 401: back to /login with the token cleared", async () => {
    await signedIn(async ({ page, appUrl }) => {
      await page.goto("/profile");
      await page.getByText("Coming soon....").waitFor();
      // The start-up refresh replaced the token: revoke the current one behind the app's back.
      const token = await storedToken(page);
      expect(token).toBeTruthy();
      await apiClient(appUrl, token ?? undefined).call("logout");

      // The dashboard asks the server for the user: that call answers 401.
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
      await expectPath(page, "/login");
      expect(new URL(page.url()).searchParams.get("redirect")).toBe("/dashboard");
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      await expect.poll(() => storedToken(page)).toBeNull();
    });
  });

  it("sends a revoked session to /login when the app is opened again", async () => {
    await signedIn(async ({ page, appUrl, token }) => {
      await apiClient(appUrl, token).call("logout");
      await page.goto("/dashboard");
      await expectPath(page, "/login");
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      expect(await storedToken(page)).toBeNull();
    });
  });
});
