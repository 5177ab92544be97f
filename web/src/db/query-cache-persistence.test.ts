import { QueryClient } from "@tanstack/react-query";
import { IDBKeyRange, indexedDB } from "fake-indexeddb";
import { describe, expect, it, vi } from "vitest";
import { isRestorable, restoreQueryCache, subscribeQueryCache } from "../lib/persist-query-cache.ts";
import { PERSIST_MAX_AGE_MS, shouldPersistQuery } from "../lib/query-client.ts";
import { createDatabase, type StockbridgeDatabase } from "./database.ts";
import { createKeyValueStorage, isQuotaError } from "./kv-storage.ts";
import { createQueryPersister, QUERY_CACHE_KEY } from "./query-persister.ts";

let databases = 0;
function freshDatabase(): StockbridgeDatabase {
  databases += 1;
  return createDatabase({ name: `stockbridge-test-${databases}-${Date.now()}`, indexedDB, IDBKeyRange });
}

const LIST = { products: [{ _id: "p1", sku: "A-1" }], total: 1, page: 1, totalPages: 1 };

async function saveCache(db: StockbridgeDatabase, fill: (client: QueryClient) => unknown, buster = "1.0.0") {
  const persister = createQueryPersister(db, { throttleTime: 0 });
  const client = new QueryClient();
  const stop = subscribeQueryCache({
    queryClient: client,
    persister,
    buster,
    maxAge: PERSIST_MAX_AGE_MS,
    dehydrateOptions: { shouldDehydrateQuery: shouldPersistQuery },
  });
  await fill(client);
  await vi.waitFor(async () => {
    const row = await db.kv.get(QUERY_CACHE_KEY);
    expect(row?.value).toContain("A-1");
  });
  stop();
  return persister;
}

describe("the persisted query cache", () => {
  it("brings saved lists back into a new query client", async () => {
    const db = freshDatabase();
    const persister = await saveCache(db, (client) => client.setQueryData(["notifications", "list"], LIST));

    const next = new QueryClient();
    await restoreQueryCache({ queryClient: next, persister, buster: "1.0.0", maxAge: PERSIST_MAX_AGE_MS });
    expect(next.getQueryData(["notifications", "list"])).toEqual(LIST);
  });

  it("marks restored lists stale, so a screen refetches what may predate the last write", async () => {
    const db = freshDatabase();
    const persister = await saveCache(db, (client) => client.setQueryData(["notifications", "list"], LIST));

    const next = new QueryClient({ defaultOptions: { queries: { staleTime: 5 * 60_000 } } });
    await restoreQueryCache({ queryClient: next, persister, buster: "1.0.0", maxAge: PERSIST_MAX_AGE_MS });
    expect(next.getQueryState(["notifications", "list"])?.isInvalidated).toBe(true);
    expect(next.getQueryData(["notifications", "list"])).toEqual(LIST);
  });

  it("drops a cache written by another app version", async () => {
    const db = freshDatabase();
    const persister = await saveCache(db, (client) => client.setQueryData(["products"], LIST), "1.0.0");

    const next = new QueryClient();
    await restoreQueryCache({ queryClient: next, persister, buster: "2.0.0", maxAge: PERSIST_MAX_AGE_MS });
    expect(next.getQueryData(["products"])).toBeUndefined();
    expect(await db.kv.get(QUERY_CACHE_KEY)).toBeUndefined();
  });

  it("drops a cache older than its maximum age", async () => {
    const db = freshDatabase();
    const persister = await saveCache(db, (client) => client.setQueryData(["products"], LIST));

    const next = new QueryClient();
    const later = () => Date.now() + PERSIST_MAX_AGE_MS + 1;
    await restoreQueryCache({
      queryClient: next,
      persister,
      buster: "1.0.0",
      maxAge: PERSIST_MAX_AGE_MS,
      now: later,
    });
    expect(next.getQueryData(["products"])).toBeUndefined();
  });

  it("leaves out queries that opt out of persistence", async () => {
    const db = freshDatabase();
    await saveCache(db, async (client) => {
      await client.fetchQuery({
        queryKey: ["session", "me"],
        queryFn: () => ({ user: "secret-ish" }),
        meta: { persist: false },
      });
      client.setQueryData(["products"], LIST);
    });
    const row = await db.kv.get(QUERY_CACHE_KEY);
    expect(row?.value).not.toContain("secret-ish");
  });

  it("is removed by removeClient (sign-out)", async () => {
    const db = freshDatabase();
    const persister = await saveCache(db, (client) => client.setQueryData(["products"], LIST));
    await persister.removeClient();
    expect(await db.kv.get(QUERY_CACHE_KEY)).toBeUndefined();
  });
});

describe("isRestorable", () => {
  it("needs the same buster and an age within the limit", () => {
    expect(isRestorable({ timestamp: 1_000, buster: "a" }, { buster: "a", maxAge: 500, now: 1_400 })).toBe(
      true,
    );
    expect(isRestorable({ timestamp: 1_000, buster: "a" }, { buster: "b", maxAge: 500, now: 1_400 })).toBe(
      false,
    );
    expect(isRestorable({ timestamp: 1_000, buster: "a" }, { buster: "a", maxAge: 500, now: 1_600 })).toBe(
      false,
    );
  });
});

describe("createKeyValueStorage", () => {
  it("reports a full quota instead of failing the write", async () => {
    const db = freshDatabase();
    const quotaError = Object.assign(new Error("full"), { name: "QuotaExceededError" });
    db.kv.hook("creating", () => {
      throw quotaError;
    });
    const reported: unknown[] = [];
    const storage = createKeyValueStorage(db, { onQuotaExceeded: (error) => reported.push(error) });

    await storage.setItem("k", "v");
    expect(reported).toHaveLength(1);
    expect(isQuotaError(reported[0])).toBe(true);
  });
});
