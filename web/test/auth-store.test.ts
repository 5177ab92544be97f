import { TOKEN_STORAGE_KEY } from "@stockbridge/shared";
import { IDBKeyRange, indexedDB } from "fake-indexeddb";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionEndReason } from "../src/features/auth/auth-store.ts";
import { createServices, type Services } from "../src/lib/services.ts";
import { createMemoryStorage, type TokenStorage } from "../src/lib/token-store.ts";
import { type FakeEdge, makeUser, startFakeEdge } from "./support/fake-edge.ts";

const edges: FakeEdge[] = [];
afterEach(async () => {
  await Promise.all(edges.splice(0).map((edge) => edge.close()));
});

let count = 0;
function services(options: { baseUrl: string; storage?: TokenStorage; dbName?: string }): Services {
  count += 1;
  return createServices({
    storage: options.storage ?? createMemoryStorage(),
    appVersion: "test",
    apiBaseUrl: options.baseUrl,
    database: { name: options.dbName ?? `auth-test-${count}-${Date.now()}`, indexedDB, IDBKeyRange },
  });
}

async function edge(): Promise<FakeEdge> {
  const started = await startFakeEdge(makeUser({ name: "Ada Lovelace" }));
  edges.push(started);
  return started;
}

function endings(app: Services): SessionEndReason[] {
  const reasons: SessionEndReason[] = [];
  app.auth.onSessionEnded((reason) => reasons.push(reason));
  return reasons;
}

describe("auth store", () => {
  it("starts anonymous without a stored token", () => {
    const app = services({ baseUrl: "http://127.0.0.1:9/api" });
    expect(app.auth.getState()).toMatchObject({ status: "anonymous", isAuthenticated: false, user: null });
  });

  it("signs in, keeps the token under the product key and clears an earlier error", async () => {
    const server = await edge();
    const storage = createMemoryStorage();
    const app = services({ baseUrl: server.baseUrl, storage });

    await expect(app.auth.login({ email: "ada@example.com", password: "wrong" })).rejects.toThrow(
      "Invalid email or password",
    );
    expect(app.auth.getState().error).toBe("Invalid email or password");

    const user = await app.auth.login({ email: "ada@example.com", password: "Secret1" });
    expect(user.name).toBe("Ada Lovelace");
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBe("token-1");
    expect(app.auth.getState()).toMatchObject({
      status: "authenticated",
      isAuthenticated: true,
      error: null,
    });
  });

  it("restores a session from a stored token by the refresh call and keeps the new token", async () => {
    const server = await edge();
    server.validTokens.add("stored");
    const storage = createMemoryStorage();
    storage.setItem(TOKEN_STORAGE_KEY, "stored");
    const app = services({ baseUrl: server.baseUrl, storage });
    expect(app.auth.getState().status).toBe("restoring");

    await app.auth.restore();
    expect(server.calls).toContain("POST /api/auth/refresh");
    expect(app.auth.getState()).toMatchObject({ status: "authenticated", token: "token-1" });
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBe("token-1");
  });

  it("ends the session when the stored token is refused, without navigating itself", async () => {
    const server = await edge();
    const storage = createMemoryStorage();
    storage.setItem(TOKEN_STORAGE_KEY, "expired");
    const app = services({ baseUrl: server.baseUrl, storage });
    const reasons = endings(app);
    app.queryClient.setQueryData(["products"], { total: 3 });

    await app.auth.restore();
    expect(app.auth.getState()).toMatchObject({ status: "anonymous", user: null, token: null });
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(app.queryClient.getQueryData(["products"])).toBeUndefined();
    expect(reasons).toEqual(["restore-failed"]);
  });

  it("opens on the saved user when the server cannot be reached", async () => {
    const server = await edge();
    const storage = createMemoryStorage();
    const dbName = `offline-${Date.now()}`;
    await services({ baseUrl: server.baseUrl, storage, dbName }).auth.login({
      email: "ada@example.com",
      password: "Secret1",
    });

    const offline = services({ baseUrl: "http://127.0.0.1:9/api", storage, dbName });
    await offline.auth.restore();
    expect(offline.auth.getState()).toMatchObject({ status: "authenticated", offline: true });
    expect(offline.auth.getState().user?.email).toBe("ada@example.com");
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBe("token-1");
  });

  it("clears token and caches on a 401 and reports it as unauthorized", async () => {
    const server = await edge();
    const storage = createMemoryStorage();
    const app = services({ baseUrl: server.baseUrl, storage });
    const reasons = endings(app);
    await app.auth.login({ email: "ada@example.com", password: "Secret1" });
    app.queryClient.setQueryData(["products"], { total: 3 });
    server.validTokens.clear(); // the server forgot the session

    await expect(app.api.call("me")).rejects.toMatchObject({ status: 401 });
    await waitForEnd(reasons);
    expect(reasons).toEqual(["unauthorized"]);
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(app.queryClient.getQueryData(["products"])).toBeUndefined();
    expect(app.auth.getState().isAuthenticated).toBe(false);
  });

  it("logs out through POST /auth/logout and ends the session as a logout", async () => {
    const server = await edge();
    const storage = createMemoryStorage();
    const app = services({ baseUrl: server.baseUrl, storage });
    const reasons = endings(app);
    await app.auth.login({ email: "ada@example.com", password: "Secret1" });

    await app.auth.logout();
    expect(server.calls).toContain("POST /api/auth/logout");
    expect(reasons).toEqual(["logout"]);
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(server.validTokens.size).toBe(0);
  });

  it("replaces the user from GET /auth/me", async () => {
    const server = await edge();
    const app = services({ baseUrl: server.baseUrl });
    await app.auth.login({ email: "ada@example.com", password: "Secret1" });
    app.auth.setUser(makeUser({ name: "Old Name" }));

    await app.auth.refreshUser();
    expect(app.auth.getState().user?.name).toBe("Ada Lovelace");
  });
});

/** The 401 handler ends the session asynchronously; wait for its report. */
async function waitForEnd(reasons: SessionEndReason[]): Promise<void> {
  for (let i = 0; i < 100 && reasons.length === 0; i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
}
