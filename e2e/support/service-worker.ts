import type { Page } from "playwright-core";

/**
 * Waits until the service worker is installed (precache done) and controls the page. The worker
 * does not claim open pages, so the first visit is controlled only after one reload.
 */
export async function installServiceWorker(page: Page): Promise<void> {
  await serviceWorkerReady(page);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/**
 * Resolves once a service worker is active, and fails at once when its install fails (the worker
 * turns redundant) instead of hanging until the test's timeout.
 */
export async function serviceWorkerReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const installing = (await navigator.serviceWorker.getRegistration())?.installing;
    if (installing) {
      const worker = installing;
      await new Promise<void>((resolve, reject) => {
        const check = () => {
          if (worker.state === "redundant") reject(new Error("the service worker failed to install"));
          else if (worker.state !== "installing") resolve();
        };
        worker.addEventListener("statechange", check);
        check();
      });
    }
    await navigator.serviceWorker.ready;
  });
}
