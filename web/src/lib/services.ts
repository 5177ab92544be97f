import type { QueryClient } from "@tanstack/react-query";
import type { Persister } from "@tanstack/react-query-persist-client";
import { toast } from "sonner";
import type { DatabaseOptions } from "../db/database.ts";
import type { UserCache } from "../db/user-cache.ts";
import { type AuthStore, createAuthStore } from "../features/auth/auth-store.ts";
import { type ApiClient, createApi } from "./api.ts";
import type { BrowserStorage } from "./browser-storage.ts";
import { restoreQueryCache, subscribeQueryCache } from "./persist-query-cache.ts";
import { createQueryClient, PERSIST_MAX_AGE_MS, shouldPersistQuery } from "./query-client.ts";
import { createTokenStore, type TokenStorage } from "./token-store.ts";

export interface Services {
  api: ApiClient;
  auth: AuthStore;
  queryClient: QueryClient;
  persister: Persister;
  /** Starts writing the query cache to IndexedDB; returns the function that stops it. */
  persistCache(): () => void;
}

export interface ServicesOptions {
  storage: TokenStorage;
  /** Busts the persisted cache when the app changes. */
  appVersion: string;
  database?: DatabaseOptions;
  /** Default `/api` (same origin); tests point it at a local server. */
  apiBaseUrl?: string;
  fetch?: typeof fetch;
  isOnline?(): boolean;
}

/** The composition root of the browser app: one instance of each service, wired together. */
export function createServices(options: ServicesOptions): Services {
  const tokens = createTokenStore(options.storage);
  // IndexedDB is not needed to draw the first screen: Dexie (30 KB gzip) loads on first use, at
  // start-up beside the session refresh, instead of inside the entry every page waits for.
  let opened: Promise<BrowserStorage> | undefined;
  const storage = (): Promise<BrowserStorage> => {
    opened ??= import("./browser-storage.ts").then((module) =>
      module.openBrowserStorage(options.database, {
        onQuotaExceeded: () =>
          toast.warning("Browser storage is full: saved lists will not be available offline.", {
            id: "quota",
          }),
      }),
    );
    return opened;
  };
  const persister: Persister = {
    persistClient: async (client) => (await storage()).persister.persistClient(client),
    restoreClient: async () => (await storage()).persister.restoreClient(),
    removeClient: async () => (await storage()).persister.removeClient(),
  };
  const users: UserCache = {
    load: async () => (await storage()).users.load(),
    save: async (user) => (await storage()).users.save(user),
    clear: async () => (await storage()).users.clear(),
  };
  const queryClient = createQueryClient(options.isOnline ? { isOnline: options.isOnline } : {});
  const buster = options.appVersion;

  const api = createApi({
    tokens,
    onUnauthorized: () => auth.handleUnauthorized(),
    ...(options.apiBaseUrl ? { baseUrl: options.apiBaseUrl } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const auth: AuthStore = createAuthStore({
    api,
    tokens,
    users,
    caches: {
      async restore() {
        await restoreQueryCache({ queryClient, persister, maxAge: PERSIST_MAX_AGE_MS, buster });
      },
      async clear() {
        await queryClient.cancelQueries();
        queryClient.clear();
        await persister.removeClient();
      },
    },
  });

  return {
    api,
    auth,
    queryClient,
    persister,
    persistCache: () =>
      subscribeQueryCache({
        queryClient,
        persister,
        buster,
        maxAge: PERSIST_MAX_AGE_MS,
        dehydrateOptions: { shouldDehydrateQuery: shouldPersistQuery },
      }),
  };
}
