import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";
import { safeRedirect } from "./features/auth/guards.ts";
import { createMemoryStorage, type TokenStorage } from "./lib/token-store.ts";
import { warmStart } from "./lib/warm-start.ts";
import { createAppRouter } from "./router.tsx";
import { createServices } from "./services.ts";
import "./styles.css";

/** Local storage, or memory when the browser refuses it (the session then lasts one tab). */
function browserStorage(): TokenStorage {
  try {
    const storage = window.localStorage;
    storage.getItem("probe");
    return storage;
  } catch {
    return createMemoryStorage();
  }
}

function start(): void {
  const services = createServices({
    storage: browserStorage(),
    appVersion: __APP_VERSION__,
    isOnline: () => navigator.onLine,
  });
  const router = createAppRouter(services);

  // Logout and a 401 go to /login; after a 401 the user comes back to where they were. A failed
  // restore needs nothing here: the router mounts afterwards and its guard redirects.
  services.auth.onSessionEnded((reason) => {
    if (reason === "restore-failed") return;
    const back = reason === "unauthorized" ? safeRedirect(router.state.location.href) : undefined;
    void router.navigate({ to: "/login", search: back ? { redirect: back } : {}, replace: true });
  });
  void services.auth.restore();
  warmStart(router, { auth: services.auth, queryClient: services.queryClient, api: services.api });

  const root = document.getElementById("root");
  if (!root) throw new Error("index.html has no #root element");
  createRoot(root).render(
    <StrictMode>
      <App services={services} router={router} />
    </StrictMode>,
  );
}

start();
