import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { inject } from "vitest";

/** What recordTransients keeps: each transient thing by kind, in the order it showed. */
export interface ShownTransients {
  /** Every toast's text. */
  toast: string[];
  /** Every progress bar's accessible name (aria-label). */
  progressbar: string[];
  /** The text of every button seen disabled (a "Saving..." or "Fetching..." state). */
  disabledButton: string[];
}

declare global {
  interface Window {
    /** Kept by recordTransients since the page loaded. */
    __shown?: ShownTransients;
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
  await recordTransients(context);
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
 * Keeps, in each page of the context, a record of the transient things shown since the page loaded
 * (`window.__shown`): toasts, progress bars, disabled busy buttons. They can come and go while the
 * test is still busy with an earlier step (a slow round trip to the browser on a loaded machine),
 * so tests look them up in this lasting record (expectShown, expectToast) instead of hoping to
 * catch them on screen.
 */
export async function recordTransients(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const shown: ShownTransients = { toast: [], progressbar: [], disabledButton: [] };
    const seen = new WeakMap<Element, string>();
    Object.defineProperty(window, "__shown", { value: shown });
    const note = (kind: keyof ShownTransients, element: Element, text: string) => {
      const key = `${kind}:${text}`;
      if (seen.get(element) === key) return;
      seen.set(element, key);
      shown[kind].push(text);
    };
    const record = () => {
      for (const toast of document.querySelectorAll("[data-sonner-toast]"))
        note("toast", toast, toast.textContent ?? "");
      for (const bar of document.querySelectorAll('[role="progressbar"]'))
        note("progressbar", bar, bar.getAttribute("aria-label") ?? "");
      for (const button of document.querySelectorAll("button:disabled"))
        note("disabledButton", button, button.textContent?.trim() ?? "");
    };
    new MutationObserver(record).observe(document, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
      attributeFilter: ["disabled", "aria-label"],
    });
  });
}

let counter = 0;
/** A unique, valid identity for a test's own user. */
export function newIdentity(name = "Erin Example") {
  counter += 1;
  return { name, email: `e2e-${Date.now()}-${counter}@example.com`, password: "Passw0rd1" };
}
