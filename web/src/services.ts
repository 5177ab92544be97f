import { grantsAccess } from "@stockbridge/shared";
import type { QueryClient } from "@tanstack/react-query";
import type { Persister } from "@tanstack/react-query-persist-client";
import { toast } from "sonner";
import type { DatabaseOptions } from "./db/database.ts";
import { MIRROR_LISTS, type MirrorList } from "./db/mirror-rows.ts";
import { createMirrorStore } from "./db/mirror-store.ts";
import { createOutboxStore } from "./db/outbox-store.ts";
import type { UserCache } from "./db/user-cache.ts";
import { type AuthStore, createAuthStore } from "./features/auth/auth-store.ts";
import { historyKeys } from "./features/history/queries.ts";
import { mappingKeys } from "./features/mapping/queries.ts";
import { productKeys } from "./features/products/queries.ts";
import { scheduleKeys } from "./features/schedules/queries.ts";
import { settingsKeys } from "./features/settings/mapping-settings-queries.ts";
import { type ApiClient, createApi } from "./lib/api.ts";
import type { BrowserStorage } from "./lib/browser-storage.ts";
import { createLocalFirstApi } from "./lib/local-first-api.ts";
import { createMirrorSync, type MirrorSync } from "./lib/mirror-sync.ts";
import { createOutbox, type Outbox } from "./lib/outbox.ts";
import { restoreQueryCache, subscribeQueryCache } from "./lib/persist-query-cache.ts";
import { createQueryClient, PERSIST_MAX_AGE_MS, shouldPersistQuery } from "./lib/query-client.ts";
import { createTokenStore, type TokenStorage } from "./lib/token-store.ts";

export interface Services {
  api: ApiClient;
  auth: AuthStore;
  queryClient: QueryClient;
  persister: Persister;
  /** Starts writing the query cache to IndexedDB; returns the function that stops it. */
  persistCache(): () => void;
  mirror: MirrorSync;
  outbox: Outbox;
  /**
   * Keeps the mirror filled and the outbox draining for the signed-in subscriber (on sign-in, on
   * reconnect); returns the function that stops it.
   */
  syncInBackground(): () => void;
}

/**
 * The query keys of the screens that show each mirrored list: a catalog's also name the unmapped
 * products, which are worked out from it (the mappings' key holds them already).
 */
const LIST_KEYS: Record<MirrorList, readonly (readonly unknown[])[]> = {
  shopify: [productKeys.shopify(), mappingKeys.unmapped()],
  acumatica: [productKeys.acumatica(), mappingKeys.unmapped()],
  mappings: [mappingKeys.all],
  schedules: [scheduleKeys.all],
  history: [historyKeys.all],
};

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
    opened ??= import("./lib/browser-storage.ts").then((module) =>
      module.openBrowserStorage(options.database, {
        onQuotaExceeded: () =>
          toast.warning("Browser storage is full: saved lists will not be available offline.", {
            id: "quota",
          }),
      }),
    );
    return opened;
  };
  const database = async () => (await storage()).db;
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

  const isOnline = options.isOnline ?? (() => true);
  const server = createApi({
    tokens,
    onUnauthorized: () => auth.handleUnauthorized(),
    ...(options.apiBaseUrl ? { baseUrl: options.apiBaseUrl } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const mirrorStore = createMirrorStore(database);
  const refreshLists = (lists: readonly MirrorList[]) => {
    for (const list of lists)
      for (const queryKey of LIST_KEYS[list]) void queryClient.invalidateQueries({ queryKey });
  };
  const outbox = createOutbox({
    api: server,
    store: createOutboxStore(database),
    mirror: mirrorStore,
    userId: () => auth.getState().user?._id ?? null,
    onDrained({ sent, refused }) {
      if (sent > 0) toast.success(`${sent} offline edit${sent === 1 ? "" : "s"} sent`, { id: "outbox-sent" });
      for (const text of refused) toast.error(text, { duration: 15_000 });
      refreshLists(MIRROR_LISTS);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.all });
      void mirror.refreshAll().catch(() => undefined);
    },
  });
  const mirror = createMirrorSync({
    api: server,
    store: mirrorStore,
    hold: (list, page, write) => outbox.hold(list, page, write),
    onChanged: (list) => refreshLists([list]),
  });
  const api = createLocalFirstApi({ api: server, mirror, store: mirrorStore, outbox, isOnline });
  const auth: AuthStore = createAuthStore({
    api,
    tokens,
    users,
    caches: {
      async restore() {
        await restoreQueryCache({ queryClient, persister, maxAge: PERSIST_MAX_AGE_MS, buster });
      },
      async clear() {
        // The spec's client cache of a session: queries, the mirror and the outbox (another user on
        // this device never sees them).
        mirror.stop();
        await queryClient.cancelQueries();
        queryClient.clear();
        await Promise.all([persister.removeClient(), mirrorStore.clear()]);
      },
    },
  });

  return {
    api,
    auth,
    queryClient,
    persister,
    mirror,
    outbox,
    syncInBackground() {
      const follow = () => {
        const { status, user } = auth.getState();
        if (status !== "authenticated" || !user || !grantsAccess(user.subscription?.status))
          return mirror.stop();
        mirror.start(user._id);
        if (isOnline()) void outbox.drain();
      };
      const reconnected = () => {
        void outbox.drain().then(() => mirror.refreshAll().catch(() => undefined));
      };
      follow();
      const stopFollowing = auth.subscribe(follow);
      window.addEventListener("online", reconnected);
      return () => {
        stopFollowing();
        window.removeEventListener("online", reconnected);
        mirror.stop();
      };
    },
    persistCache: () =>
      subscribeQueryCache({
        queryClient,
        persister,
        buster,
        maxAge: PERSIST_MAX_AGE_MS,
        dehydrateOptions: {
          shouldDehydrateQuery: shouldPersistQuery,
        },
      }),
  };
}
