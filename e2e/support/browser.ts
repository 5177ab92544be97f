import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { inject } from "vitest";

declare global {
  interface Window {
    /** Kept by recordToasts: the text of every toast shown since the page loaded. */
    __shownToasts?: string[];
  }
}

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
  await recordToasts(context);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return {
    context,
    page,
    appUrl,
    close: () => context.close(),
  };
}

/**
 * Keeps, in each page of the context, the text of every toast shown since the page loaded
 * (`window.__shownToasts`). A toast is transient: it can come and go while the test is still busy
 * with an earlier step (a slow click round trip on a loaded machine), so tests look it up in this
 * lasting record (expectToast) instead of hoping to catch it on screen.
 */
export async function recordToasts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const shown: string[] = [];
    const seen = new WeakMap<Element, string>();
    Object.defineProperty(window, "__shownToasts", { value: shown });
    const record = () => {
      for (const toast of document.querySelectorAll("[data-sonner-toast]")) {
        const text = toast.textContent ?? "";
        if (seen.get(toast) === text) continue;
        seen.set(toast, text);
        shown.push(text);
      }
    };
    new MutationObserver(record).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

let counter = 0;
/** A unique, valid identity for a test's own user. */
export function newIdentity(name = "Erin Example") {
  counter += 1;
  return { name, email: `e2e-${Date.now()}-${counter}@example.com`, password: "Passw0rd1" };
}
