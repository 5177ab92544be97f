import { ApiError, type EndpointName, type MappingInput, type ScheduleInput } from "@stockbridge/shared";
import type { MirrorList } from "../db/mirror-rows.ts";
import type { FeedPage, MirrorStore } from "../db/mirror-store.ts";
import type { OutboxEndpoint, OutboxEntry, OutboxStore, RowSnapshot } from "../db/outbox-store.ts";
import type { ApiClient } from "./api.ts";

export interface OutboxOptions {
  /** The plain client: a replay goes to the server as the edit was made. */
  api: ApiClient;
  store: OutboxStore;
  mirror: MirrorStore;
  userId(): string | null;
  newId?(): string;
  now?(): Date;
  /** The replay ended: how many edits the server took, and each it refused ('Delete mapping A / B: message'). */
  onDrained(report: { sent: number; refused: string[] }): void;
}

type Input = OutboxEntry["input"];

/** Where an endpoint's answer (a mapping or a schedule) goes; null: it answers no row. */
const ANSWER_LISTS: Record<OutboxEndpoint, MirrorList | null> = {
  manualMap: "mappings",
  updateMapping: "mappings",
  deleteMapping: null,
  createSchedule: "schedules",
  updateSchedule: "schedules",
  setScheduleStatus: "schedules",
  deleteSchedule: null,
  saveQuantityMapping: null,
  savePriceMapping: null,
  saveSafetyLimits: null,
};

/**
 * A replayed delete answered 404: the row is gone, which is what the merchant asked for. Its first
 * try may have reached the server before the network failed (queued all the same, since the app
 * cannot tell), or another device deleted it: either way the edit is done, not refused.
 */
function alreadyDone(endpoint: OutboxEndpoint, error: unknown): boolean {
  return (
    (endpoint === "deleteMapping" || endpoint === "deleteSchedule") &&
    error instanceof ApiError &&
    error.status === 404
  );
}

/**
 * Whether a failed replay may pass later (kept in the outbox) rather than being refused for good.
 * A 409 IDEMPOTENCY_IN_PROGRESS is its own first try still running on the server: its answer comes.
 */
function isTransient(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return (
    error.isNetworkError ||
    error.status === 401 ||
    error.status === 429 ||
    error.status >= 500 ||
    error.code === "IDEMPOTENCY_IN_PROGRESS"
  );
}

/**
 * Edits made offline (or whose call failed for the network): applied to the mirror at once and
 * marked pending, kept in IndexedDB in the order made, replayed in that order when the network
 * returns. The server's answer replaces the pending row; a refusal (404, 409, 400...) restores the
 * rows as they were and is reported with the server's message. Nothing is dropped silently.
 */
export function createOutbox(options: OutboxOptions) {
  const { mirror } = options;
  const newId = options.newId ?? (() => crypto.randomUUID());
  const now = options.now ?? (() => new Date());
  let draining: Promise<void> | null = null;
  // One step at a time against the queue and the rows it holds: an edit applied and queued, a feed
  // page's holds and write, a replay's answer settled. A refusal settled from a copy of its entry read
  // before a feed page changed the entry's snapshots put back a row the server had deleted, after
  // the page had moved the list's version past its removal: it stayed for good (seen after a reload).
  let turn: Promise<unknown> = Promise.resolve();
  function exclusive<T>(step: () => Promise<T>): Promise<T> {
    const next = turn.then(step, step);
    turn = next.catch(() => undefined);
    return next;
  }

  async function snapshot(list: MirrorList, id: string): Promise<RowSnapshot> {
    return { list, id, row: (await mirror.row(list, id)) ?? null };
  }

  /**
   * Each side's details of a pair, from the mirrored catalogs. The unmapped list needs no edit: it
   * is worked out from the mappings, so the pair's products leave it with the mapping row.
   */
  async function pairDetails(input: MappingInput) {
    const shopify = await mirror.findProduct("shopify", input.shopifyVariantId);
    const acumatica = await mirror.findProduct("acumatica", input.acumaticaProductId);
    return {
      shopifyDetails: {
        _id: shopify?._id ?? null,
        variantId: input.shopifyVariantId,
        sku: shopify?.sku ?? input.shopifyVariantId,
        missing: false,
      },
      acumaticaDetails: {
        _id: acumatica?._id ?? null,
        acumaticaId: input.acumaticaProductId,
        sku: acumatica?.sku ?? input.acumaticaProductId,
        missing: false,
      },
    };
  }

  /** Applies an edit to the mirror; answers what the endpoint would (as far as known offline). */
  async function applyLocally(endpoint: OutboxEndpoint, input: Input, entry: OutboxEntry): Promise<unknown> {
    const id = input.params?.id ?? "";
    const at = now().toISOString();
    const before = entry.before;
    switch (endpoint) {
      case "deleteMapping":
      case "deleteSchedule": {
        const list = endpoint === "deleteMapping" ? "mappings" : "schedules";
        const shot = await snapshot(list, id);
        before.push(shot);
        entry.label =
          endpoint === "deleteMapping"
            ? `Delete mapping ${mappingName(shot.row)}`
            : `Delete schedule ${String(shot.row?.name ?? "")}`;
        await mirror.deleteRow(list, id);
        return { ok: true };
      }
      case "manualMap": {
        const localId = `local-${newId()}`;
        entry.localId = localId;
        before.push({ list: "mappings", id: localId, row: null });
        const details = await pairDetails(input.body as MappingInput);
        const row = {
          _id: localId,
          ...details,
          skuSnapshots: skuSnapshotsOf(details),
          mappingType: "manual" as const,
          updatedAt: at,
          lastSyncedAt: null,
          createdAt: at,
          pending: true as const,
        };
        entry.label = `Map ${details.shopifyDetails.sku} to ${details.acumaticaDetails.sku}`;
        await mirror.putRow("mappings", row);
        return row;
      }
      case "updateMapping": {
        const shot = await snapshot("mappings", id);
        before.push(shot);
        const details = await pairDetails(input.body as MappingInput);
        const row = {
          ...(shot.row ?? {}),
          _id: id,
          ...details,
          skuSnapshots: skuSnapshotsOf(details),
          updatedAt: at,
          pending: true as const,
        };
        entry.label = `Edit mapping ${mappingName(shot.row)}`;
        await mirror.putRow("mappings", row);
        return row;
      }
      case "createSchedule": {
        const localId = `local-${newId()}`;
        entry.localId = localId;
        before.push({ list: "schedules", id: localId, row: null });
        const body = input.body as ScheduleInput;
        const row = {
          _id: localId,
          name: body.name,
          schedule: body.schedule,
          timezone: body.timezone ?? "UTC",
          mappingIds: body.mappingIds ?? [],
          isFullSync: body.isFullSync,
          syncOptions: body.syncOptions,
          status: body.status ?? "active",
          lastRun: null,
          nextRun: null,
          checkOnly: body.checkOnly ?? false,
          pausedByPlan: null,
          createdAt: at,
          position: Number.MAX_SAFE_INTEGER,
          pending: true as const,
        };
        entry.label = `Create schedule ${body.name}`;
        await mirror.putRow("schedules", row);
        return row;
      }
      case "updateSchedule":
      case "setScheduleStatus": {
        const shot = await snapshot("schedules", id);
        before.push(shot);
        const change =
          endpoint === "setScheduleStatus"
            ? (input.body as { status: string })
            : (input.body as ScheduleInput);
        const row = { ...(shot.row ?? {}), ...change, _id: id, pending: true as const };
        entry.label = `${endpoint === "setScheduleStatus" ? "Switch" : "Edit"} schedule ${String(shot.row?.name ?? "")}`;
        await mirror.putRow("schedules", row);
        return row;
      }
      case "saveQuantityMapping":
        entry.label = "Save the quantity mapping";
        return { quantityMapping: input.body };
      case "savePriceMapping":
        entry.label = "Save the price mapping";
        return { priceMapping: input.body };
      case "saveSafetyLimits":
        entry.label = "Save the safety limits";
        return input.body;
    }
  }

  async function restore(entry: OutboxEntry): Promise<void> {
    for (const shot of [...entry.before].reverse()) {
      if (shot.row) await mirror.putRow(shot.list, shot.row as { _id: string });
      else await mirror.deleteRow(shot.list, shot.id);
    }
  }

  /** The server took the edit: its answer replaces the pending row; later edits of a created row follow its real id. */
  async function accepted(entry: OutboxEntry, answer: unknown, later: OutboxEntry[]): Promise<void> {
    const list = ANSWER_LISTS[entry.endpoint];
    if (!list || typeof answer !== "object" || answer === null || !("_id" in answer)) return;
    const serverId = String(answer._id);
    const held = await mirror.row(list, entry.localId ?? serverId);
    if (entry.localId) {
      await mirror.deleteRow(list, entry.localId);
      for (const next of later) {
        if (next.input.params?.id !== entry.localId) continue;
        next.input = { ...next.input, params: { ...next.input.params, id: serverId } };
        await options.store.replace(next);
      }
    }
    const { pending: _pending, ...kept } = held ?? {};
    await mirror.putRow(list, { ...kept, ...answer, _id: serverId });
  }

  /** The oldest queued edit, read afresh: a feed page may have changed it since the last read. */
  async function oldest(userId: string): Promise<OutboxEntry | undefined> {
    return (await options.store.pending(userId))[0];
  }

  /**
   * Settles a replayed edit with the server's word, from its entry as stored now (a feed page may
   * have changed its snapshots while the call was on its way). Answers null when the entry is gone
   * (sign-out or a 401 cleared the queue), else whether it was sent or refused and why.
   */
  function settle(userId: string, seq: number, outcome: { answer: unknown } | { error: unknown }) {
    return exclusive(async (): Promise<{ refused: string | null } | null> => {
      const [entry, ...later] = (await options.store.pending(userId)).filter(
        (queued) => (queued.seq ?? 0) >= seq,
      );
      if (entry?.seq !== seq) return null;
      if ("answer" in outcome) await accepted(entry, outcome.answer, later);
      else if (!alreadyDone(entry.endpoint, outcome.error)) {
        await restore(entry);
        await options.store.remove(seq);
        const { error } = outcome;
        return { refused: `${entry.label}: ${error instanceof Error ? error.message : String(error)}` };
      }
      await options.store.remove(seq);
      return { refused: null };
    });
  }

  async function drain(): Promise<void> {
    const userId = options.userId();
    if (!userId) return;
    let sent = 0;
    const refused: string[] = [];
    for (let entry = await oldest(userId); entry?.seq !== undefined; entry = await oldest(userId)) {
      let outcome: { answer: unknown } | { error: unknown };
      try {
        outcome = {
          answer: await (options.api.call as (name: EndpointName, input: Input) => Promise<unknown>)(
            entry.endpoint,
            entry.input,
          ),
        };
      } catch (error) {
        if (isTransient(error)) break;
        outcome = { error };
      }
      const settled = await settle(userId, entry.seq, outcome);
      if (!settled) break;
      if (settled.refused === null) sent += 1;
      else refused.push(settled.refused);
    }
    if (sent > 0 || refused.length > 0) options.onDrained({ sent, refused });
  }

  /**
   * The ids of rows the queue's edits hold, for a feed page about to be written; what the page says
   * of a held row becomes its entry's snapshot (see `hold`).
   */
  async function holds(list: MirrorList, page: FeedPage): Promise<ReadonlySet<string>> {
    const userId = options.userId();
    const held = new Set<string>();
    if (!userId) return held;
    const server = new Map<string, Record<string, unknown> | null>();
    for (const row of page.rows) server.set(row._id, row);
    for (const id of page.removedIds) server.set(id, null);
    const claimed = new Set<string>();
    for (const entry of await options.store.pending(userId)) {
      if (entry.localId) held.add(entry.localId);
      if (entry.input.params?.id) held.add(entry.input.params.id);
      let changed = false;
      for (const shot of entry.before) {
        held.add(shot.id);
        if (shot.list !== list || claimed.has(shot.id) || !server.has(shot.id)) continue;
        claimed.add(shot.id);
        shot.row = server.get(shot.id) ?? null;
        changed = true;
      }
      if (changed) await options.store.replace(entry);
    }
    return held;
  }

  return {
    /** Queues an edit and applies it to the mirror; answers as the endpoint would. */
    async enqueue(endpoint: OutboxEndpoint, input: Input): Promise<unknown> {
      const userId = options.userId();
      if (!userId)
        throw new ApiError("You are offline: sign in again to save changes", { status: 0, code: "NETWORK" });
      const entry: OutboxEntry = {
        userId,
        endpoint,
        input,
        label: endpoint,
        localId: null,
        before: [],
        createdAt: now().getTime(),
      };
      return exclusive(async () => {
        const answer = await applyLocally(endpoint, input, entry);
        await options.store.add(entry);
        return answer;
      });
    },
    /** Replays the queue in order (one replay at a time); stops at the first edit the network fails. */
    drain(): Promise<void> {
      if (draining) return draining;
      draining = drain().finally(() => {
        draining = null;
      });
      return draining;
    },
    async waiting(): Promise<number> {
      const userId = options.userId();
      return userId ? options.store.count(userId) : 0;
    },
    /**
     * Writes a feed page with `write`, told every row an edit in the queue holds (the page must not
     * overwrite them), as one step against the queue's other steps. What the page says of a held row
     * becomes what a refusal restores (the earliest snapshot of that row), so a refused edit shows
     * the server's row, not the one seen before going offline.
     */
    hold(
      list: MirrorList,
      page: FeedPage,
      write: (keep: ReadonlySet<string>) => Promise<void>,
    ): Promise<void> {
      return exclusive(async () => write(await holds(list, page)));
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

function mappingName(row: Record<string, unknown> | null): string {
  const shopify = row?.shopifyDetails as { sku?: string } | undefined;
  const acumatica = row?.acumaticaDetails as { sku?: string } | undefined;
  return `${shopify?.sku ?? "?"} / ${acumatica?.sku ?? "?"}`;
}

/** The SKUs a pair is saved with (the server stores them as the mapping's snapshot). */
function skuSnapshotsOf(details: { shopifyDetails: { sku: string }; acumaticaDetails: { sku: string } }) {
  return { shopify: details.shopifyDetails.sku, acumatica: details.acumaticaDetails.sku };
}
