import { MESSAGES } from "@stockbridge/shared";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { browserPerFile, withSignedInSession } from "./support/fixtures.ts";
import { apiClient, expectPath, expectToast, type SignedInSession } from "./support/session.ts";
import { subscribeThroughCheckout } from "./support/subscribe.ts";

const browser = browserPerFile();

/** A new user (registered through the API) signed in to a fresh browser context. */
function signedIn(body: (session: SignedInSession) => Promise<void>): Promise<void> {
  return withSignedInSession(browser(), {}, body);
}

/** A new user with an active Starter subscription, paid through the sandbox checkout by script. */
async function subscribedToStarter(body: (session: SignedInSession) => Promise<void>): Promise<void> {
  await signedIn(async (session) => {
    await subscribeThroughCheckout(apiClient(session.appUrl, session.token), inject("sandboxUrl"), {
      plan: "Starter",
    });
    await body(session);
  });
}

function planCard(page: Page, name: string) {
  return page.getByRole("region", { name, exact: true });
}

function banner(page: Page) {
  return page.getByRole("region", { name: "Current subscription" });
}

async function openPlans(page: Page): Promise<void> {
  await page.goto("/subscription");
  await page.getByRole("heading", { name: "Subscription Plans" }).waitFor();
}

/** Clicks Subscribe on a plan card and waits for the sandbox's hosted checkout page. */
async function startCheckout(page: Page, plan: string): Promise<void> {
  const sandboxOrigin = new URL(inject("sandboxUrl")).origin;
  await planCard(page, plan).getByRole("button", { name: "Subscribe" }).click();
  await page.waitForURL((url) => url.origin === sandboxOrigin && url.pathname.startsWith("/checkout/"));
  await page.getByRole("heading", { name: `Subscribe to ${plan}` }).waitFor();
}

describe("subscription screens", () => {
  it("subscribes a new user through the hosted checkout, then opens a gated screen", async () => {
    await signedIn(async ({ page }) => {
      await openPlans(page);
      await banner(page).getByText("You have no subscription yet.").waitFor();
      const starter = planCard(page, "Starter");
      await starter.getByText("$29/month").waitFor();
      await starter.getByText("Up to 500 mapped products").waitFor();
      await planCard(page, "Growth").getByText("$79/month").waitFor();
      // The sidebar marks the gated entries while there is no subscription.
      await page.getByRole("link", { name: "Mapping (Requires a subscription)" }).waitFor();

      await startCheckout(page, "Starter");
      const backOnSuccess = page.waitForURL((url) => url.pathname === "/subscription/success", {
        waitUntil: "commit",
      });
      const verification = page.waitForRequest((request) =>
        request.url().includes("/api/subscriptions/status?session_id=cs_"),
      );
      await page.getByRole("button", { name: "Pay" }).click();

      // Back on /subscription/success, which verifies the session and goes on to the dashboard.
      await backOnSuccess;
      await verification;
      await expectToast(page, MESSAGES.subscription.activated);
      await expectPath(page, "/dashboard");
      await page.getByRole("link", { name: "Mapping", exact: true }).waitFor();

      await page.goto("/products/shopify");
      await page.getByRole("heading", { name: "Shopify Products" }).waitFor();
      await expectPath(page, "/products/shopify");
    });
  });

  it("reports a checkout it cannot verify and goes back to the plans", async () => {
    await signedIn(async ({ page }) => {
      await page.goto("/subscription/success?session_id=cs_test_not_this_users");
      await expectToast(page, MESSAGES.subscription.verificationFailed);
      await expectPath(page, "/subscription");
      await page.getByRole("heading", { name: "Subscription Plans" }).waitFor();
      await banner(page).getByText("You have no subscription yet.").waitFor();
    });
  });

  it("comes back from a cancelled checkout to 'Subscription Process Cancelled' and on to the plans", async () => {
    await signedIn(async ({ page }) => {
      await openPlans(page);
      await startCheckout(page, "Growth");
      await page.getByRole("button", { name: "Cancel" }).click();

      await expectPath(page, "/subscription/cancel");
      await page.getByRole("heading", { name: "Subscription Process Cancelled" }).waitFor();
      await page
        .getByRole("timer")
        .getByText(/Returning to the subscription page in \d seconds?/)
        .waitFor();
      await page.getByRole("button", { name: "Return to Subscription Page" }).waitFor();

      // The automatic redirect (5 seconds).
      await page.waitForURL((url) => url.pathname === "/subscription", { timeout: 15_000 });
      await page.getByRole("heading", { name: "Subscription Plans" }).waitFor();
      await banner(page).getByText("You have no subscription yet.").waitFor();
    });
  });

  it("returns from the cancel screen at once with 'Return to Subscription Page'", async () => {
    await signedIn(async ({ page }) => {
      await page.goto("/subscription/cancel");
      await page.getByRole("heading", { name: "Subscription Process Cancelled" }).waitFor();
      await page.getByRole("button", { name: "Return to Subscription Page" }).click();
      await expectPath(page, "/subscription");
      await page.getByRole("heading", { name: "Subscription Plans" }).waitFor();
    });
  });

  it("sends a user without a subscription from /mapping to /subscription with the warning", async () => {
    await signedIn(async ({ page }) => {
      await page.goto("/mapping");
      await expectToast(page, MESSAGES.access.subscriptionRequired);
      await expectPath(page, "/subscription");
      await page.getByRole("heading", { name: "Subscription Plans" }).waitFor();

      // Following the marked sidebar entry inside the app ends the same way.
      await page.getByRole("link", { name: "Dashboard" }).click();
      await expectPath(page, "/dashboard");
      await page.getByRole("link", { name: "Mapping (Requires a subscription)" }).click();
      await expectPath(page, "/subscription");
    });
  });

  it("cancels at period end with the note and 'Resume Subscription', and resumes", async () => {
    await subscribedToStarter(async ({ page }) => {
      await openPlans(page);
      await banner(page).getByText("Starter").waitFor();
      await banner(page).getByText("Active").waitFor();
      await banner(page).getByText("Next billing date").waitFor();
      const starter = planCard(page, "Starter");
      await starter.getByText("Current plan").waitFor();

      await starter.getByRole("button", { name: "Cancel Subscription" }).click();
      const dialog = page.getByRole("dialog", { name: "Cancel your subscription?" });
      await dialog.getByRole("button", { name: "Cancel Subscription" }).click();
      await expectToast(page, MESSAGES.subscription.willCancel);
      await dialog.waitFor({ state: "hidden" });
      await banner(page).getByText(MESSAGES.subscription.endsAtPeriodEnd).waitFor();
      const canceling = starter.getByRole("button", { name: "Canceling..." });
      await canceling.waitFor();
      expect(await canceling.isDisabled()).toBe(true);

      // The server kept it: a reload shows the same state.
      await page.reload();
      await banner(page).getByText(MESSAGES.subscription.endsAtPeriodEnd).waitFor();
      await starter.getByRole("button", { name: "Resume Subscription" }).click();
      await expectToast(page, MESSAGES.subscription.resumed);
      await banner(page).getByText(MESSAGES.subscription.endsAtPeriodEnd).waitFor({ state: "hidden" });
      await starter.getByRole("button", { name: "Resume Subscription" }).waitFor({ state: "hidden" });
      expect(await starter.getByRole("button", { name: "Cancel Subscription" }).isEnabled()).toBe(true);
    });
  });

  it("switches to another plan after confirming, and the banner follows", async () => {
    await subscribedToStarter(async ({ page }) => {
      await openPlans(page);
      await banner(page).getByText("Starter").waitFor();

      const growth = planCard(page, "Growth");
      await growth.getByRole("button", { name: "Switch to this plan" }).click();
      const dialog = page.getByRole("dialog", { name: "Switch to Growth?" });
      await dialog.getByRole("button", { name: "Switch Plan" }).click();
      await expectToast(page, MESSAGES.subscription.updated);

      await banner(page).getByText("Growth").waitFor();
      await growth.getByText("Current plan").waitFor();
      await growth.getByRole("button", { name: "Cancel Subscription" }).waitFor();
      await planCard(page, "Starter").getByRole("button", { name: "Switch to this plan" }).waitFor();
    });
  });
});
