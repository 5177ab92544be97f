import { ApiError, type SandboxConnection } from "@stockbridge/shared";
import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api.ts";

/** Keys nest from general to specific; a connection write touches `connectionKeys.detail()` only. */
export const connectionKeys = {
  all: ["connections"] as const,
  detail: () => [...connectionKeys.all, "detail"] as const,
  sandbox: () => [...connectionKeys.all, "sandbox"] as const,
};

/**
 * GET /users/connections: both connections as the server has them (secrets only as `...Set`).
 * Kept in memory only: a persisted copy could be older than the last test (the cache is written
 * a moment after each change), and the cards' forms start from the first answer they get.
 */
export function connectionsQuery(api: ApiClient) {
  return queryOptions({
    queryKey: connectionKeys.detail(),
    queryFn: () => api.call("getConnections"),
    meta: { persist: false },
  });
}

/**
 * GET /sandbox: the demo connection, answered only in sandbox mode (404 otherwise, read as null).
 * It carries the demo secrets, so it is never written to IndexedDB.
 */
export function sandboxConnectionQuery(api: ApiClient) {
  return queryOptions({
    queryKey: connectionKeys.sandbox(),
    queryFn: async (): Promise<SandboxConnection | null> => {
      try {
        return await api.call("sandbox");
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    meta: { persist: false, silent: true },
  });
}
