import { MESSAGES } from "@stockbridge/shared";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { startAppProxy } from "./support/app-proxy.ts";
import { browserPerFile } from "./support/fixtures.ts";
import { goOffline, goOnline } from "./support/network.ts";
import { installServiceWorker, serviceWorkerReady } from "./support/service-worker.ts";
import { apiClient, expectPath, openSignedInSession } from "./support/session.ts";
import { subscribeThroughCheckout } from "./support/subscribe.ts";

const browser = browserPerFile();

/** Asks the browser to fetch the service worker script again, as the hourly check does. */
async function checkForUpdate(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    if (!registration) throw new Error("no service worker is registered");
    await registration.update();
  });
}

/** How many queries the persisted cache (IndexedDB `stockbridge`, table `kv`) holds. */
function persistedQueryCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open("stockbridge");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const read = db.transaction("kv").objectStore("kv").get("stockbridge.query-cache");
          read.onerror = () => reject(read.error);
          read.onsuccess = () => {
            db.close();
            const row: unknown = read.result;
            if (!row || typeof row !== "object" || !("value" in row) || typeof row.value !== "string") {
              resolve(0);
              return;
            }
            const saved = JSON.parse(row.value) as { clientState?: { queries?: unknown[] } };
            resolve(saved.clientState?.queries?.length ?? 0);
          };
        };
      }),
  );
}

async function expectOfflineDashboard(page: Page, name: string): Promise<void> {
  await expectPath(page, "/dashboard");
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
  await page.getByRole("status").filter({ hasText: MESSAGES.generic.offline }).waitFor();
  // The subscription comes from the saved user: one step of five is done.
  await page.getByText("1 of 5 done").waitFor();
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menu").getByText(name, { exact: true }).waitFor();
  await page.keyboard.press("Escape");
}

describe("installed app", () => {
  it("opens with the network cut: the shell, the offline banner and the signed-in user's dashboard", async () => {
    const appUrl = inject("appUrl");
    const session = await openSignedInSession(browser(), appUrl, { name: "Offline Olive" });
    try {
      const { page, context } = session;
      await subscribeThroughCheckout(apiClient(appUrl, session.token), inject("sandboxUrl"));
      await page.goto("/dashboard");
      await page.getByText("1 of 5 done").waitFor();
      await installServiceWorker(page);
      await page.getByText("1 of 5 done").waitFor();
      // The list totals the dashboard asked for are saved for the offline start.
      await expect.poll(() => persistedQueryCount(page)).toBeGreaterThan(0);
      await expect(
        page.getByRole("status").filter({ hasText: MESSAGES.generic.offline }).count(),
      ).resolves.toBe(0);

      await goOffline(context);
      await page.reload();
      await expectOfflineDashboard(page, "Offline Olive");

      const second = await context.newPage();
      await second.goto("/");
      await expectOfflineDashboard(second, "Offline Olive");

      // Back online, the banner goes away.
      await goOnline(context);
      await page
        .getByRole("status")
        .filter({ hasText: MESSAGES.generic.offline })
        .waitFor({ state: "detached" });
    } finally {
      await session.close();
    }
  });

  it("serves a web app manifest with the product's name and icons", async () => {
    const appUrl = inject("appUrl");
    const html = await (await fetch(`${appUrl}/dashboard`)).text();
    const href = /<link rel="manifest" href="([^"]+)"/.exec(html)?.[1];
    expect(href).toBeDefined();
    const response = await fetch(new URL(href ?? "", appUrl));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/manifest+json");
    const manifest = (await response.json()) as {
      name: string;
      start_url: string;
      display: string;
      icons: Array<{ src: string; sizes: string; type: string }>;
    };
    expect(manifest.name).toBe("Stockbridge");
    expect(manifest.display).toBe("standalone");
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
    for (const icon of manifest.icons) {
      const image = await fetch(new URL(icon.src, new URL(href ?? "", appUrl)));
      expect(image.status, icon.src).toBe(200);
      expect(image.headers.get("content-type"), icon.src).toBe(icon.type);
    }
  });

  it("offers to reload into a new version once one is deployed", async () => {
    const proxy = await startAppProxy(inject("appUrl"));
    const context = await browser().newContext({ baseURL: proxy.url });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const prompt = page.getByRole("alert").filter({ hasText: "A new version is available" });
      const waitingWorker = () =>
        page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting));

      // A first visit: the worker is installed but does not control this page, so the new one
      // activates at once; the page still runs the old code until it reloads.
      await page.goto("/login");
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      await serviceWorkerReady(page);
      await expect(prompt.count()).resolves.toBe(0);
      proxy.deployNewServiceWorker();
      await checkForUpdate(page);
      await prompt.waitFor();
      await Promise.all([page.waitForEvent("load"), prompt.getByRole("button", { name: "Reload" }).click()]);
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      await expect.poll(waitingWorker).toBe(false);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await expect(prompt.count()).resolves.toBe(0);

      // A controlled page: 'Later' keeps what was typed; the next start offers it again.
      proxy.deployNewServiceWorker();
      await checkForUpdate(page);
      await prompt.waitFor();
      await page.getByLabel("Email").fill("kept@example.com");
      await prompt.getByRole("button", { name: "Later" }).click();
      await prompt.waitFor({ state: "detached" });
      await expect(page.getByLabel("Email").inputValue()).resolves.toBe("kept@example.com");
      await page.reload();
      await prompt.waitFor();
      await Promise.all([page.waitForEvent("load"), prompt.getByRole("button", { name: "Reload" }).click()]);
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      await expect.poll(waitingWorker).toBe(false);
      await expect(prompt.count()).resolves.toBe(0);
    } finally {
      await context.close();
      await proxy.close();
    }
  });
});
