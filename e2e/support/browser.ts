import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { inject } from "vitest";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Debian's Chromium, headless, with the flags this closed network needs (TOOLCHAIN.md pitfall 10). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export interface Session {
  context: BrowserContext;
  page: Page;
  appUrl: string;
  close(): Promise<void>;
}

/** A fresh browser context (own storage, cookies and service worker) for one test. */
export async function openSession(
  browser: Browser,
  options: { width?: number; height?: number } = {},
): Promise<Session> {
  const appUrl = inject("appUrl");
  const context = await browser.newContext({
    baseURL: appUrl,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return {
    context,
    page,
    appUrl,
    close: () => context.close(),
  };
}

let counter = 0;
/** A unique, valid identity for a test's own user. */
export function newIdentity(name = "Erin Example") {
  counter += 1;
  return { name, email: `e2e-${Date.now()}-${counter}@example.com`, password: "Passw0rd1" };
}
