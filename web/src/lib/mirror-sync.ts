import type { EndpointName } from "@stockbridge/shared";
import { MIRROR_LISTS, type MirrorList, type MirrorState } from "../db/mirror-rows.ts";
import type { FeedPage, MirrorStore } from "../db/mirror-store.ts";
import type { ApiClient } from "./api.ts";

const FEEDS = {
  shopify: "shopifyProductChanges",
  acumatica: "acumaticaProductChanges",
  mappings: "mappingChanges",
  schedules: "scheduleChanges",
  history: "historyChanges",
} as const satisfies Record<MirrorList, EndpointName>;

/** How often the mirror asks every feed for changes while online. */
const MIRROR_POLL_MS = 30_000;
/** Rows per feed page: a 100,000-row catalog arrives in 50 requests. */
const FILL_PAGE = 2_000;

export interface MirrorProgress {
  /** Lists whose first fill is still going, with rows saved so far and the server's count. */
  filling: { list: MirrorList; saved: number; total: number | null }[];
  /** Every list has been filled once. */
  complete: boolean;
}

export interface MirrorSyncOptions {
  /** The plain client (not the local-first one): feeds always go to the server. */
  api: ApiClient;
  store: MirrorStore;
  /**
   * Writes each feed page through the outbox: `write` is told the ids of rows an offline edit holds,
   * which the page leaves as they are (the outbox keeps what the page says of them for a refusal to
   * restore), and runs as one step against the outbox's replays.
   */
  hold(list: MirrorList, page: FeedPage, write: (keep: ReadonlySet<string>) => Promise<void>): Promise<void>;
  /** A list's rows changed: screens showing it read it again. */
  onChanged(list: MirrorList): void;
  pageSize?: number;
}

/**
 * Fills the mirror from the change feeds after sign-in and keeps it current: every list is read
 * from version 0 once (in pages, progress reported), then only what changed, on a poll while
 * online, when a screen reads a list, and on reconnect.
 */
export function createMirrorSync(options: MirrorSyncOptions) {
  const { api, store } = options;
  const pageSize = options.pageSize ?? FILL_PAGE;
  const running = new Map<MirrorList, Promise<void>>();
  const listeners = new Set<() => void>();
  let userId: string | null = null;
  let epoch = 0;
  let timer: ReturnType<typeof setInterval> | null = null;
  let progress: MirrorProgress = { filling: [], complete: false };

  async function report(): Promise<void> {
    const states = new Map((await store.states()).map((state) => [state.list, state]));
    const filling = MIRROR_LISTS.filter((list) => !states.get(list)?.complete).map((list) => ({
      list,
      saved: states.get(list)?.saved ?? 0,
      total: states.get(list)?.total ?? null,
    }));
    progress = { filling: userId ? filling : [], complete: filling.length === 0 };
    for (const listener of listeners) listener();
  }

  /** The server's row count of a list, for the first fill's progress (one row read). */
  async function serverCount(list: MirrorList): Promise<{ total: number } | null> {
    const one = { query: { limit: "1" } };
    try {
      if (list === "shopify") return await api.call("shopifyProducts", one);
      if (list === "acumatica") return await api.call("acumaticaProducts", one);
      if (list === "mappings") return await api.call("mappingHistory", one);
      if (list === "schedules") return await api.call("listSchedules", one);
      return await api.call("executionHistory", one);
    } catch {
      return null;
    }
  }

  function fetchPage(list: MirrorList, since: number): Promise<FeedPage> {
    const page = api.call(FEEDS[list], { query: { since: String(since), limit: String(pageSize) } });
    // Awaited later (or dropped when a write fails first): never an unhandled rejection meanwhile.
    page.catch(() => undefined);
    return page;
  }

  async function pull(list: MirrorList): Promise<void> {
    const started = epoch;
    const clears = store.clears();
    const state: MirrorState | undefined = await store.state(list);
    let next = fetchPage(list, state?.version ?? 0);
    const counted = state?.complete ? null : await serverCount(list);
    const total = state?.complete ? null : (state?.total ?? counted?.total ?? null);
    let changed = false;
    for (;;) {
      const page = await next;
      // Signed out (or another user) meanwhile: this page belongs to nobody now.
      if (started !== epoch) return;
      // The next page is on its way while this one is written (a page's version is the next since).
      if (page.hasMore) next = fetchPage(list, page.version);
      if (page.rows.length > 0 || page.removedIds.length > 0 || page.reset) changed = true;
      await options.hold(list, page, (keep) => store.applyPage(list, page, { keep, total, clears }));
      await report();
      if (!page.hasMore) break;
    }
    if (changed) options.onChanged(list);
  }

  function refresh(list: MirrorList): Promise<void> {
    const current = running.get(list);
    if (current) return current;
    const next = pull(list).finally(() => running.delete(list));
    running.set(list, next);
    return next;
  }

  /**
   * One list after another: IndexedDB writes one list's rows at a time anyway, and lists filled at
   * once made the Shopify list's first fill of 100,000 rows take 24 s instead of under 20.
   */
  async function refreshAll(): Promise<void> {
    for (const list of MIRROR_LISTS) {
      if (!userId) return;
      await refresh(list);
    }
  }

  return {
    refresh,
    refreshAll,
    /** True once a list's first fill finished: from then on it answers the screens. */
    async isComplete(list: MirrorList): Promise<boolean> {
      return (await store.state(list))?.complete === true;
    },
    /** Whether the mirror holds anything of a list at all (offline, a partial list beats none). */
    async hasAny(list: MirrorList): Promise<boolean> {
      return (await store.state(list)) !== undefined;
    },
    start(owner: string): void {
      if (userId === owner) return;
      userId = owner;
      void refreshAll().catch(() => undefined);
      timer = setInterval(() => {
        if (navigator.onLine) void refreshAll().catch(() => undefined);
      }, MIRROR_POLL_MS);
      void report();
    },
    stop(): void {
      userId = null;
      epoch += 1;
      if (timer) clearInterval(timer);
      timer = null;
      running.clear();
      void report();
    },
    progress: (): MirrorProgress => progress,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type MirrorSync = ReturnType<typeof createMirrorSync>;
