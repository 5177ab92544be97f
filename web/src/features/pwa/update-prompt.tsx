import { useRegisterSW } from "virtual:pwa-register/react";
import { RefreshCw } from "lucide-react";
import { Button } from "../../ui/button.tsx";

/** How often an open app asks the server whether a new version was deployed. */
const UPDATE_CHECK_MS = 60 * 60_000;

/**
 * Registers the service worker (workbox-window, via vite-plugin-pwa) and, when a new version is
 * waiting, offers to reload into it. The page never reloads on its own: a form may be half filled.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      setInterval(() => {
        if (navigator.onLine) void registration.update();
      }, UPDATE_CHECK_MS);
    },
  });

  if (!needRefresh) return null;
  return (
    <div
      role="alert"
      className="fixed right-4 bottom-14 z-[70] flex max-w-sm items-center gap-3 rounded-lg bg-white p-4 shadow-lg ring-1 ring-gray-200"
    >
      <RefreshCw className="size-5 shrink-0 text-accent-600" aria-hidden="true" />
      <p className="flex-1 text-sm text-gray-800">A new version is available</p>
      <Button size="sm" variant="ghost" onClick={() => setNeedRefresh(false)}>
        Later
      </Button>
      <Button size="sm" onClick={() => void reloadIntoNewVersion(updateServiceWorker)}>
        Reload
      </Button>
    </div>
  );
}

/**
 * Activates the waiting worker and reloads. The plugin reloads only a page the old worker
 * controlled; a page opened before the first worker took over (a first visit) would stay as it is
 * and keep the prompt, so that page reloads itself once the new worker is active.
 */
async function reloadIntoNewVersion(activate: (reloadPage?: boolean) => Promise<void>): Promise<void> {
  if ("serviceWorker" in navigator && !navigator.serviceWorker.controller) {
    const waiting = (await navigator.serviceWorker.getRegistration())?.waiting;
    if (!waiting) {
      // Nothing waits: no page ran on the old worker, so the new one took over at once.
      window.location.reload();
      return;
    }
    waiting.addEventListener("statechange", () => {
      if (waiting.state === "activated") window.location.reload();
    });
  }
  await activate(true);
}
