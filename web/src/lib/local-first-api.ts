import {
  AcumaticaProductQuerySchema,
  ApiError,
  contract,
  type EndpointName,
  ExecutionHistoryQuerySchema,
  MappingHistoryQuerySchema,
  MESSAGES,
  ScheduleListQuerySchema,
  ShopifyProductQuerySchema,
  UnmappedQuerySchema,
} from "@stockbridge/shared";
import * as v from "valibot";
import { type MirrorList, UNMAPPED_SOURCES } from "../db/mirror-rows.ts";
import type { MirrorStore } from "../db/mirror-store.ts";
import { OUTBOX_ENDPOINTS, type OutboxEndpoint } from "../db/outbox-store.ts";
import type { ApiClient } from "./api.ts";
import { isNetworkError } from "./errors.ts";
import type { MirrorSync } from "./mirror-sync.ts";
import type { Outbox } from "./outbox.ts";

export interface LocalFirstOptions {
  api: ApiClient;
  mirror: MirrorSync;
  store: MirrorStore;
  outbox: Outbox;
  isOnline(): boolean;
}

type Input = {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  idempotencyKey?: string;
};

/** Calls that work offline or only concern the session itself: never refused for being offline. */
const SESSION_CALLS: ReadonlySet<EndpointName> = new Set(["login", "register", "refresh", "logout"]);

function isOutboxEndpoint(name: EndpointName): name is OutboxEndpoint {
  return (OUTBOX_ENDPOINTS as readonly string[]).includes(name);
}

/**
 * The API client the screens use: the same calls, answered local-first. A list the mirror holds
 * completely is read from it (after asking its feed what changed, when online), and offline it is
 * always read from it; an edit goes to the server, or, offline or when the network fails, into the
 * outbox; any other write offline is refused at once with 'You are offline: ...'.
 */
export function createLocalFirstApi(options: LocalFirstOptions): ApiClient {
  const { api, mirror, store, outbox } = options;
  const plain = api.call as (name: EndpointName, input?: Input) => Promise<unknown>;

  /** `from`: the list the answer is read from, or every list it is worked out from. */
  async function fromMirror(
    from: MirrorList | readonly MirrorList[],
    local: () => Promise<unknown>,
    remote: () => Promise<unknown>,
  ) {
    const lists = typeof from === "string" ? [from] : from;
    const every = async (test: (list: MirrorList) => Promise<boolean>) =>
      (await Promise.all(lists.map(test))).every(Boolean);
    if (options.isOnline()) {
      if (!(await every(mirror.isComplete))) return remote();
      try {
        await Promise.all(lists.map(mirror.refresh));
      } catch (error) {
        // Unreachable: the mirror answers as it is. Anything else (401, 403) is the server's word.
        if (!isNetworkError(error)) throw error;
      }
      return local();
    }
    if (await every(mirror.hasAny)) return local();
    return remote();
  }

  function listCall(name: EndpointName, input: Input): Promise<unknown> | null {
    const remote = () => plain(name, input);
    const query = input.query ?? {};
    switch (name) {
      case "shopifyProducts":
        return fromMirror(
          "shopify",
          () => store.shopifyProducts(v.parse(ShopifyProductQuerySchema, query)),
          remote,
        );
      case "acumaticaProducts":
        return fromMirror(
          "acumatica",
          () => store.acumaticaProducts(v.parse(AcumaticaProductQuerySchema, query)),
          remote,
        );
      case "mappingHistory":
        return fromMirror(
          "mappings",
          () => store.mappingHistory(v.parse(MappingHistoryQuerySchema, query)),
          remote,
        );
      case "unmapped":
        return fromMirror(
          UNMAPPED_SOURCES,
          () => store.unmapped(v.parse(UnmappedQuerySchema, query)),
          remote,
        );
      case "listSchedules":
        return fromMirror(
          "schedules",
          () => store.schedules(v.parse(ScheduleListQuerySchema, query)),
          remote,
        );
      case "executionHistory":
        return fromMirror(
          "history",
          () => store.history(v.parse(ExecutionHistoryQuerySchema, query)),
          remote,
        );
      default:
        return null;
    }
  }

  async function edit(name: OutboxEndpoint, input: Input): Promise<unknown> {
    // One key for the edit, before its first try: a try whose answer the network lost may have
    // landed, and its replay with the same key gets that answer instead of running again.
    const idempotencyKey = crypto.randomUUID();
    // Behind queued edits, a new one waits its turn: the server sees them in the order made.
    if (options.isOnline() && (await outbox.waiting()) === 0) {
      try {
        return await plain(name, { ...input, idempotencyKey });
      } catch (error) {
        if (!isNetworkError(error)) throw error;
      }
    }
    return outbox.enqueue(name, { params: input.params, body: input.body, idempotencyKey });
  }

  async function call(name: EndpointName, input: Input = {}): Promise<unknown> {
    const listed = listCall(name, input);
    if (listed) return listed;
    if (isOutboxEndpoint(name)) return edit(name, input);
    if (!options.isOnline() && contract[name].method !== "GET" && !SESSION_CALLS.has(name)) {
      throw new ApiError(MESSAGES.generic.offline, { status: 0, code: "NETWORK" });
    }
    return plain(name, input);
  }

  return { call: call as ApiClient["call"] };
}
