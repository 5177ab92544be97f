import { CLIENT_CACHE_MS, MESSAGES } from "@stockbridge/shared";
import { defaultShouldDehydrateQuery, type Query, QueryCache, QueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { errorMessage, shouldRetryQuery, shouldToastQueryError } from "./errors.ts";

/** How long a persisted cache may be restored after it was written. */
export const PERSIST_MAX_AGE_MS = 24 * 60 * 60_000;

declare module "@tanstack/react-query" {
  interface Register {
    queryMeta: {
      /** Set false for a query whose data must not be written to IndexedDB. */
      persist?: boolean;
      /** Set true when the screen reports the error itself (no global toast). */
      silent?: boolean;
    };
  }
}

export interface QueryClientOptions {
  isOnline?(): boolean;
}

/**
 * Lists stay fresh for 5 minutes (spec section 7) and are kept for a day so the persisted cache
 * has something to restore. A failed query shows the server's message as a toast, once.
 */
export function createQueryClient(options: QueryClientOptions = {}): QueryClient {
  const isOnline = options.isOnline ?? (() => true);
  return new QueryClient({
    queryCache: new QueryCache({
      onError(error, query) {
        if (query.meta?.silent) return;
        if (!shouldToastQueryError(error, { online: isOnline() })) return;
        const message = errorMessage(error, MESSAGES.generic.requestFailed);
        toast.error(message, { id: `query-error:${message}` });
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: CLIENT_CACHE_MS,
        gcTime: PERSIST_MAX_AGE_MS,
        retry: shouldRetryQuery,
        refetchOnWindowFocus: false,
        // Lists are answered from the offline mirror: a query runs offline too (and pauses its
        // retries when the server is what it needs).
        networkMode: "offlineFirst",
      },
      // An edit offline goes to the outbox and any other write is refused at once: a mutation
      // never waits paused for a network that may not come back (a spinner that never ends).
      mutations: { networkMode: "always" },
    },
  });
}

/** Successful queries are persisted unless they opt out with `meta: { persist: false }`. */
export function shouldPersistQuery(query: Query): boolean {
  return defaultShouldDehydrateQuery(query) && query.meta?.persist !== false;
}
