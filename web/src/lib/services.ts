import type { QueryClient } from "@tanstack/react-query";
import type { Persister } from "@tanstack/react-query-persist-client";
import { toast } from "sonner";
import { createDatabase, type DatabaseOptions, type StockbridgeDatabase } from "../db/database.ts";
import { createQueryPersister } from "../db/query-persister.ts";
import { createUserCache } from "../db/user-cache.ts";
import { type AuthStore, createAuthStore } from "../features/auth/auth-store.ts";
import { type ApiClient, createApi } from "./api.ts";
import { restoreQueryCache, subscribeQueryCache } from "./persist-query-cache.ts";
import { createQueryClient, PERSIST_MAX_AGE_MS, shouldPersistQuery } from "./query-client.ts";
import { createTokenStore, type TokenStorage } from "./token-store.ts";

export interface Services {
  api: ApiClient;
  auth: AuthStore;
  queryClient: QueryClient;
  persister: Persister;
  db: StockbridgeDatabase;
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
  const db = createDatabase(options.database);
  const persister = createQueryPersister(db, {
    onQuotaExceeded: () =>
      toast.warning("Browser storage is full: saved lists will not be available offline.", { id: "quota" }),
  });
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
    users: createUserCache(db),
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
    db,
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
