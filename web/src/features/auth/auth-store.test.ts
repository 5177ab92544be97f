import { TOKEN_STORAGE_KEY } from "@stockbridge/shared";
import { IDBKeyRange, indexedDB } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../edge/testing/helpers.ts";
import { createMemoryStorage, type TokenStorage } from "../../lib/token-store.ts";
import { createServices, type Services } from "../../services.ts";
import type { SessionEndReason } from "./auth-store.ts";

/** The browser app's services, speaking to the real edge app in-process (or to a closed port). */
function browserApp(options: {
  edge?: TestApp;
  storage?: TokenStorage;
  dbName?: string;
  calls?: string[];
}): Services {
  const { edge, calls } = options;
  return createServices({
    storage: options.storage ?? createMemoryStorage(),
    appVersion: "test",
    apiBaseUrl: edge ? "http://app.test/api" : "http://127.0.0.1:9/api",
    database: { name: options.dbName ?? `auth-test-${crypto.randomUUID()}`, indexedDB, IDBKeyRange },
    ...(edge
      ? {
          fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
            calls?.push(`${init?.method ?? "GET"} ${new URL(String(input)).pathname}`);
            return edge.app.request(String(input), init);
          },
        }
      : {}),
  });
}

function endings(app: Services): SessionEndReason[] {
  const reasons: SessionEndReason[] = [];
  app.auth.onSessionEnded((reason) => reasons.push(reason));
  return reasons;
}

describe("auth store", () => {
  it("starts anonymous without a stored token", () => {
    const app = browserApp({});
    expect(app.auth.getState()).toMatchObject({ status: "anonymous", isAuthenticated: false, user: null });
  });

  it("keeps the server's message when a login is refused, and signs in with the right password", async () => {
    const edge = await createTestApp();
    const account = await edge.registerUser({ name: "Ada Lovelace" });
    const storage = createMemoryStorage();
    const app = browserApp({ edge, storage });

    const refused = await app.auth
      .login({ email: account.email, password: "Wrong-passw0rd" })
      .catch((error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect(app.auth.getState().error).toBe((refused as Error).message);

    const user = await app.auth.login({ email: account.email, password: account.password });
    expect(user.name).toBe("Ada Lovelace");
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBe(app.auth.getState().token);
    expect(app.auth.getState()).toMatchObject({
      status: "authenticated",
      isAuthenticated: true,
      error: null,
    });
  });

  it("restores a session from a stored token by the refresh call", async () => {
    const edge = await createTestApp();
    const account = await edge.registerUser();
    const storage = createMemoryStorage();
    storage.setItem(TOKEN_STORAGE_KEY, account.token);
    const calls: string[] = [];
    const app = browserApp({ edge, storage, calls });
    expect(app.auth.getState().status).toBe("restoring");

    await app.auth.restore();
    expect(calls).toEqual(["POST /api/auth/refresh"]);
    expect(app.auth.getState()).toMatchObject({ status: "authenticated", user: { email: account.email } });
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBe(app.auth.getState().token);
  });

  it("ends the session when the stored token is refused, and leaves navigation to the guards", async () => {
    const edge = await createTestApp();
    const storage = createMemoryStorage();
    storage.setItem(TOKEN_STORAGE_KEY, "not-a-token");
    const app = browserApp({ edge, storage });
    const reasons = endings(app);
    app.queryClient.setQueryData(["products"], { total: 3 });

    await app.auth.restore();
    expect(app.auth.getState()).toMatchObject({ status: "anonymous", user: null, token: null });
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(app.queryClient.getQueryData(["products"])).toBeUndefined();
    expect(reasons).toEqual(["restore-failed"]);
  });

  it("opens on the saved user when the server cannot be reached", async () => {
    const edge = await createTestApp();
    const account = await edge.registerUser();
    const storage = createMemoryStorage();
    const dbName = `offline-${crypto.randomUUID()}`;
    await browserApp({ edge, storage, dbName }).auth.login({
      email: account.email,
      password: account.password,
    });
    const token = storage.getItem(TOKEN_STORAGE_KEY);

    const offline = browserApp({ storage, dbName });
    await offline.auth.restore();
    expect(offline.auth.getState()).toMatchObject({ status: "authenticated", offline: true });
    expect(offline.auth.getState().user?.email).toBe(account.email);
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBe(token);
  });

  it("clears token and caches on a 401 and reports it as unauthorized", async () => {
    const edge = await createTestApp();
    const account = await edge.registerUser();
    const storage = createMemoryStorage();
    const app = browserApp({ edge, storage });
    const reasons = endings(app);
    await app.auth.login({ email: account.email, password: account.password });
    app.queryClient.setQueryData(["products"], { total: 3 });
    storage.setItem(TOKEN_STORAGE_KEY, "expired-or-forged"); // what an expired session looks like

    await expect(app.api.call("me")).rejects.toMatchObject({ status: 401 });
    await waitFor(() => reasons.length > 0);
    expect(reasons).toEqual(["unauthorized"]);
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(app.queryClient.getQueryData(["products"])).toBeUndefined();
    expect(app.auth.getState().isAuthenticated).toBe(false);
  });

  it("ends a session once when a request sent before it ended answers 401 afterwards", async () => {
    const edge = await createTestApp();
    const account = await edge.registerUser();
    const storage = createMemoryStorage();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const app = createServices({
      storage,
      appVersion: "test",
      apiBaseUrl: "http://app.test/api",
      database: { name: `auth-test-${crypto.randomUUID()}`, indexedDB, IDBKeyRange },
      // The bell's poll leaves with the token of the moment and is answered only after the session ended.
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        if (new URL(String(input)).pathname === "/api/notifications") await held;
        return edge.app.request(String(input), init);
      },
    });
    const reasons = endings(app);
    await app.auth.login({ email: account.email, password: account.password });
    storage.setItem(TOKEN_STORAGE_KEY, "expired-or-forged");
    const late = app.api.call("listNotifications").catch((error: unknown) => error);
    await expect(app.api.call("me")).rejects.toMatchObject({ status: 401 });
    await waitFor(() => reasons.length > 0);

    release();
    expect(await late).toMatchObject({ status: 401 });
    // A logout now ends nothing but reports itself; a second 'unauthorized' ending would report first.
    await app.auth.logout();
    expect(reasons).toEqual(["unauthorized", "logout"]);
  });

  it("logs out through POST /auth/logout and ends the session as a logout", async () => {
    const edge = await createTestApp();
    const account = await edge.registerUser();
    const storage = createMemoryStorage();
    const calls: string[] = [];
    const app = browserApp({ edge, storage, calls });
    const reasons = endings(app);
    await app.auth.login({ email: account.email, password: account.password });

    await app.auth.logout();
    expect(calls).toContain("POST /api/auth/logout");
    expect(reasons).toEqual(["logout"]);
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });

  it("replaces the user from GET /auth/me", async () => {
    const edge = await createTestApp();
    const account = await edge.registerUser({ name: "Ada Lovelace" });
    const app = browserApp({ edge });
    await app.auth.login({ email: account.email, password: account.password });
    app.auth.setUser({ ...account.user, name: "Old Name" });

    await app.auth.refreshUser();
    expect(app.auth.getState().user?.name).toBe("Ada Lovelace");
  });
});

/** The 401 handler ends the session asynchronously; wait for it to report (failing after 1 s). */
async function waitFor(done: () => boolean): Promise<void> {
  for (let i = 0; !done(); i++) {
    if (i === 200) throw new Error("the session did not report its end");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
