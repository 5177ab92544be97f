import type { Browser } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { launchBrowser } from "./browser.ts";
import { openSignedInSession, type SignedInSession } from "./session.ts";

/**
 * Called at a test file's top level: one Chromium for the file, launched before its tests and
 * closed after them (each test still opens its own context). Answers the browser's getter, since
 * the browser only exists once the file's tests run.
 */
export function browserPerFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("The browser is launched in beforeAll: ask for it inside a test.");
    return browser;
  };
}

/** Runs `body` as a new user signed in to a fresh context, closed afterwards even when `body` fails. */
export async function withSignedInSession(
  browser: Browser,
  options: Parameters<typeof openSignedInSession>[2],
  body: (session: SignedInSession) => Promise<void>,
): Promise<void> {
  const session = await openSignedInSession(browser, inject("appUrl"), options);
  try {
    await body(session);
  } finally {
    await session.close();
  }
}
