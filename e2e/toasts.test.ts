import { MESSAGES } from "@stockbridge/shared";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openSession } from "./support/browser.ts";
import { browserPerFile } from "./support/fixtures.ts";

const browser = browserPerFile();
const START = new Date("2026-03-02T09:00:00Z");

/**
 * The sign-in page with the page's clock under the test's control (Playwright's clock): time only
 * passes when the test runs it, so "a minute later" needs no waiting and cannot race.
 */
async function onLoginWithClock(body: (page: Page) => Promise<void>): Promise<void> {
  const session = await openSession(browser());
  try {
    const { page } = session;
    await page.clock.install({ time: START });
    await page.goto("/login");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.clock.pauseAt(new Date(START.getTime() + 60_000));
    await body(page);
  } finally {
    await session.close();
  }
}

/** Submits the empty form: the 'fix the validation errors' toast, shown once the clock moves. */
async function showToast(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "Sign In" }).click();
  // sonner adds the toast from a timer.
  await page.clock.runFor(50);
  const toast = page.locator("[data-sonner-toast]", { hasText: MESSAGES.auth.fixValidationErrors });
  await toast.waitFor();
  return toast;
}

/**
 * React renders state set by the toast's timers in a later task: two rounds of the page's message
 * queue (not faked by the clock) let such a render land before the toast is looked at.
 */
async function settle(page: Page): Promise<void> {
  for (let round = 0; round < 2; round += 1) {
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(null);
        }),
    );
  }
}

async function isShown(toast: Locator): Promise<boolean> {
  return (await toast.count()) === 1 && (await toast.getAttribute("data-removed")) !== "true";
}

describe("toasts", () => {
  it("goes away by itself after five seconds", async () => {
    await onLoginWithClock(async (page) => {
      const toast = await showToast(page);
      await page.clock.runFor(4_000);
      await settle(page);
      expect(await isShown(toast)).toBe(true);
      await page.clock.runFor(2_000);
      await toast.waitFor({ state: "detached" });
    });
  });

  it("stays while focus is on it, and goes five seconds after focus leaves", async () => {
    await onLoginWithClock(async (page) => {
      const toast = await showToast(page);
      await toast.getByRole("button", { name: "Close toast" }).focus();
      await page.clock.runFor(60_000);
      await settle(page);
      expect(await isShown(toast)).toBe(true);

      await page.getByLabel("Email").focus();
      await page.clock.runFor(4_000);
      await settle(page);
      expect(await isShown(toast)).toBe(true);
      await page.clock.runFor(2_000);
      await toast.waitFor({ state: "detached" });
    });
  });

  it("stays while the pointer is on it, and goes once the pointer leaves", async () => {
    await onLoginWithClock(async (page) => {
      const toast = await showToast(page);
      await toast.hover();
      await page.clock.runFor(60_000);
      await settle(page);
      expect(await isShown(toast)).toBe(true);

      await page.mouse.move(5, 700);
      await page.clock.runFor(6_000);
      await toast.waitFor({ state: "detached" });
    });
  });

  it("stays closed once closed with its button, and the next toast goes after five seconds", async () => {
    await onLoginWithClock(async (page) => {
      const toast = await showToast(page);
      // Clicked: focus goes into the toast (holding it), then the toast leaves with its button.
      await toast.getByRole("button", { name: "Close toast" }).click();
      for (let step = 0; step < 10; step += 1) {
        await page.clock.runFor(100);
        await settle(page);
      }
      await toast.waitFor({ state: "detached" });
      await page.clock.runFor(1_000);
      await settle(page);
      expect(await toast.count()).toBe(0);

      // Focus went with the closed toast: the next one is not held, it goes by itself.
      const next = await showToast(page);
      await page.clock.runFor(6_000);
      await next.waitFor({ state: "detached" });
    });
  });
});
