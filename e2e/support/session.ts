import { createApiClient, TOKEN_STORAGE_KEY, type User } from "@stockbridge/shared";
import type { Browser, Page } from "playwright-core";
import { expect } from "vitest";
import { newIdentity, recordTransients, type Session, type ShownTransients } from "./browser.ts";

export interface SignedInSession extends Session {
  user: User;
  token: string;
  identity: ReturnType<typeof newIdentity>;
}

/** An API client against the product, optionally carrying a token. */
export function apiClient(appUrl: string, token?: string) {
  return createApiClient({ baseUrl: `${appUrl}/api`, getToken: () => token ?? null });
}

/**
 * A fresh context whose local storage already holds a new user's token (registered through the
 * API), so a test that is not about signing in starts on a signed-in app without the form.
 */
export async function openSignedInSession(
  browser: Browser,
  appUrl: string,
  options: {
    width?: number;
    height?: number;
    name?: string;
    serviceWorkers?: "allow" | "block";
    /** A tablet: touch events and a coarse primary pointer, as Chromium emulates them. */
    touch?: boolean;
  } = {},
): Promise<SignedInSession> {
  const identity = newIdentity(options.name);
  const { user, token } = await apiClient(appUrl).call("register", {
    body: { name: identity.name, email: identity.email, password: identity.password },
  });
  const context = await browser.newContext({
    baseURL: appUrl,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    serviceWorkers: options.serviceWorkers ?? "allow",
    ...(options.touch ? { hasTouch: true, isMobile: true } : {}),
    storageState: {
      cookies: [],
      origins: [{ origin: appUrl, localStorage: [{ name: TOKEN_STORAGE_KEY, value: token }] }],
    },
  });
  await recordTransients(context);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { context, page, appUrl, user, token, identity, close: () => context.close() };
}

/** The stored bearer token of the page's origin, or null. */
export function storedToken(page: Page): Promise<string | null> {
  return page.evaluate((key) => window.localStorage.getItem(key), TOKEN_STORAGE_KEY);
}

/**
 * Waits until a toast (sonner) whose text contains `text` has been shown on the page since it
 * loaded, seen or not: it may already be gone (see recordTransients). Wait for the lasting state
 * the action leaves as well wherever there is one.
 */
export function expectToast(page: Page, text: string, options: ShownAfter = {}): Promise<void> {
  return expectShown(page, "toast", text, options);
}

interface ShownAfter {
  /** Only what was shown after the first `after` of its kind (from `toastsShown(page).length`). */
  after?: number;
  /** How long to wait, for work known to take longer than the page's default 10 s allows for. */
  timeout?: number;
}

/** Waits until a transient thing of this kind whose text contains `text` has been shown. */
export async function expectShown(
  page: Page,
  kind: keyof ShownTransients,
  text: string,
  options: ShownAfter = {},
): Promise<void> {
  await page.waitForFunction(
    ([kind, wanted, after]) =>
      (window.__shown?.[kind] ?? []).slice(after).some((shown) => shown.includes(wanted)),
    [kind, text, options.after ?? 0] as const,
    options.timeout === undefined ? undefined : { timeout: options.timeout },
  );
}

/** The texts of every toast shown on the page since it loaded, oldest first. */
export function toastsShown(page: Page): Promise<string[]> {
  return page.evaluate(() => [...(window.__shown?.toast ?? [])]);
}

/** Waits until the page's path is `path` (query string ignored). */
export async function expectPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path);
  expect(new URL(page.url()).pathname).toBe(path);
}
