import { LOCATION_RULES } from "@stockbridge/shared";
import { record } from "../../lib/json.ts";
import { createSemaphore } from "../transport.ts";
import { text, toGid } from "./gid.ts";
import { ShopifyError } from "./graphql-client.ts";
import type { ShopifyPort } from "./port.ts";
import { type QuantityWriteForm, quantityWriteForm, quantityWriteRequest } from "./sync-operations.ts";
import { readByNodes } from "./variant-read.ts";

export type QuantityName = "available" | "on_hand";

export interface QuantityItem {
  /** The key the outcome is answered under (one write per mapping and location: see `quantityKey`). */
  mappingId: string;
  variantId: string;
  name: QuantityName;
  inventoryItemId: string;
  locationId: string;
  /** For the skip reason when Shopify says the item is not stocked there. */
  locationName?: string;
  /** The value read before planning: the compare-and-set guard. */
  from: number;
  to: number;
}

export type QuantityOutcome =
  | { kind: "written" }
  | { kind: "skipped"; reason: string }
  | { kind: "failed"; error: string }
  /** Only with `retryStale: false`: Shopify no longer held `from` (and not `to` either); nothing written. */
  | { kind: "changed"; current: number };

export interface WriteOptions {
  runId: string;
  /**
   * A stale compare is read again and, by default, tried once more from the value read; false
   * reports it as `changed` instead (an approved plan must not overwrite a change made since).
   */
  retryStale?: boolean;
}

/** Shopify caps input arrays at 250. */
const BATCH = 250;
const WRITE_CONCURRENCY = 4;
const STALE = new Set(["COMPARE_QUANTITY_STALE", "CHANGE_FROM_QUANTITY_STALE"]);
/** Errors that say "this item cannot take a quantity here", not "the write failed". */
const SKIPS: Record<string, (item: QuantityItem) => string> = {
  NON_MUTABLE_INVENTORY_ITEM: () => "bundle: Shopify does not let apps set a bundle's stock",
  // Read as stocked, then unstocked before the write: skipped (never activated), naming where.
  ITEM_NOT_STOCKED_AT_LOCATION: (item) => LOCATION_RULES.notStockedAt(item.locationName ?? item.locationId),
};

/** Points `count` quantity writes take from the bucket: one call of ten per 250 (the documented mutation cost). */
export function quantityWritePoints(count: number): number {
  return Math.ceil(count / BATCH) * 10;
}

interface Pending extends QuantityItem {
  staleRetried: boolean;
}

/**
 * Absolute quantities with `inventorySetQuantities`, 250 per call, compare-and-set against the
 * value read in the plan: `compareQuantity` before 2026-01, `changeFromQuantity` plus an idempotency
 * key from 2026-01 (by the version Shopify says it served; see `writeFormOf` when it does not say). The call is all or nothing, so an item
 * Shopify refuses is taken out and the rest are sent again; a stale compare is re-read and retried
 * once (and counts as done if Shopify already holds the target, e.g. our own retried write).
 */
export async function writeQuantities(
  port: ShopifyPort,
  items: QuantityItem[],
  options: WriteOptions,
): Promise<Map<string, QuantityOutcome>> {
  const outcome = new Map<string, QuantityOutcome>();
  const batches: Pending[][] = [];
  for (let start = 0; start < items.length; start += BATCH) {
    batches.push(items.slice(start, start + BATCH).map((item) => ({ ...item, staleRetried: false })));
  }
  const semaphore = createSemaphore(WRITE_CONCURRENCY);
  await Promise.all(
    batches.map((batch) => semaphore.run(() => writeBatch(port, { batch, options, outcome }))),
  );
  return outcome;
}

async function writeBatch(
  port: ShopifyPort,
  write: { batch: Pending[]; options: WriteOptions; outcome: Map<string, QuantityOutcome> },
): Promise<void> {
  const { batch, options, outcome } = write;
  let pending = batch;
  while (pending.length > 0) {
    const answer = await send(port, pending, options.runId);
    if ("refused" in answer) {
      pending = await isolateRefused(port, { pending, answer, options, outcome });
      continue;
    }
    if (answer.general.length > 0) {
      for (const item of pending)
        outcome.set(item.mappingId, { kind: "failed", error: answer.general.join("; ") });
      return;
    }
    const next: Pending[] = [];
    const stale: Pending[] = [];
    pending.forEach((item, index) => {
      const errors = answer.byIndex.get(index);
      // With no error at all the call applied everything; otherwise nothing was applied.
      if (!errors) {
        if (answer.byIndex.size === 0) outcome.set(item.mappingId, { kind: "written" });
        else next.push(item);
        return;
      }
      const skip = errors.map((error) => SKIPS[error.code]).find(Boolean);
      if (skip) outcome.set(item.mappingId, { kind: "skipped", reason: skip(item) });
      else if (errors.every((error) => STALE.has(error.code)) && !item.staleRetried) stale.push(item);
      else
        outcome.set(item.mappingId, {
          kind: "failed",
          error: errors.map((error) => error.message).join("; "),
        });
    });
    if (stale.length > 0)
      next.push(...(await refreshStale(port, stale, { retry: options.retryStale !== false, outcome })));
    pending = next;
  }
}

/**
 * Re-reads items whose compare value went stale: done if Shopify already holds the target, else
 * one more try (or, without `retry`, reported as changed).
 */
async function refreshStale(
  port: ShopifyPort,
  stale: Pending[],
  options: { retry: boolean; outcome: Map<string, QuantityOutcome> },
): Promise<Pending[]> {
  const { outcome } = options;
  // One read per location the stale items are at (a run writes several).
  const reading = new Map<string, Awaited<ReturnType<typeof readByNodes>>["reading"]>();
  try {
    for (const locationId of new Set(stale.map((item) => item.locationId))) {
      const ids = stale.filter((item) => item.locationId === locationId).map((item) => item.variantId);
      reading.set(
        locationId,
        (await readByNodes(port, { variantIds: ids, locations: [locationId] })).reading,
      );
    }
  } catch (error) {
    for (const item of stale)
      outcome.set(item.mappingId, {
        kind: "failed",
        error: error instanceof Error ? error.message : String(error),
      });
    return [];
  }
  const retry: Pending[] = [];
  for (const item of stale) {
    const fresh = reading.get(item.locationId)?.get(item.variantId);
    const current =
      fresh && fresh.locationId === item.locationId
        ? item.name === "available"
          ? fresh.available
          : fresh.onHand
        : null;
    if (current === null) {
      outcome.set(item.mappingId, {
        kind: "failed",
        error: "The quantity changed in Shopify during the sync and could not be read again",
      });
    } else if (current === item.to) {
      outcome.set(item.mappingId, { kind: "written" });
    } else if (!options.retry) {
      outcome.set(item.mappingId, { kind: "changed", current });
    } else {
      retry.push({ ...item, from: current, staleRetried: true });
    }
  }
  return retry;
}

/**
 * The whole call failed: Shopify refused it before running it, or the transport gave up. `input`
 * says Shopify refused the variables (a value that failed GraphQL coercion, e.g. an Int past
 * 2,147,483,647), which names a culprit among the items rather than a state of the store.
 */
interface Refused {
  refused: string;
  input: boolean;
}

/**
 * Answers what is left to send after a refused call. Items the refusal names by index fail with
 * Shopify's explanation and the rest go again (one more call); when it names none, the batch is
 * halved until each bad item stands alone, so at most 2 x log2(250) = 16 more calls per bad item.
 * Anything else (access denied, Shopify down) fails the batch: sending it again would not help.
 */
async function isolateRefused(
  port: ShopifyPort,
  write: {
    pending: Pending[];
    answer: Refused;
    options: WriteOptions;
    outcome: Map<string, QuantityOutcome>;
  },
): Promise<Pending[]> {
  const { pending, answer, options, outcome } = write;
  const named = answer.input ? namedQuantities(answer.refused, pending.length) : new Map<number, string>();
  if (named.size > 0) {
    for (const [index, explanation] of named) {
      const item = pending[index]!;
      outcome.set(item.mappingId, {
        kind: "failed",
        error: `Shopify refused quantity ${item.to}: ${explanation}`,
      });
    }
    return pending.filter((_, index) => !named.has(index));
  }
  if (!answer.input || pending.length === 1) {
    for (const item of pending) outcome.set(item.mappingId, { kind: "failed", error: answer.refused });
    return [];
  }
  const half = Math.ceil(pending.length / 2);
  await writeBatch(port, { batch: pending.slice(0, half), options, outcome });
  await writeBatch(port, { batch: pending.slice(half), options, outcome });
  return [];
}

/**
 * Items a variable error names, with Shopify's explanation: graphql-ruby words it "Variable $input
 * of type ... was provided invalid value for quantities.1.quantity (Could not coerce ...), ...".
 */
function namedQuantities(message: string, count: number): Map<number, string> {
  const named = new Map<number, string>();
  for (const match of message.matchAll(/\bquantities\.(\d+)\.\w+ \(([^)]*)\)/g)) {
    const index = Number(match[1]);
    if (index < count && !named.has(index)) named.set(index, match[2]!);
  }
  return named;
}

interface Answer {
  byIndex: Map<number, { code: string; message: string }[]>;
  general: string[];
}

/** Forms learned from a refusal when Shopify did not name the served version (per run: one port per run). */
const learnedForms = new WeakMap<ShopifyPort, QuantityWriteForm>();

/**
 * The write form for the version Shopify served. An answer without `X-Shopify-API-Version` leaves
 * only the version asked for, and Shopify may have served a newer one (it falls forward, never
 * back): that guess is marked unsure so a refusal of its form is retried once in the other form.
 */
function writeFormOf(port: ShopifyPort): { form: QuantityWriteForm; sure: boolean } {
  if (port.servedVersion) return { form: quantityWriteForm(port.servedVersion), sure: true };
  const learned = learnedForms.get(port);
  if (learned) return { form: learned, sure: true };
  return { form: quantityWriteForm(port.requestedVersion), sure: false };
}

/** The names only one form uses: a refusal naming one says the version does not take that form. */
const FORM_NAMES: Record<QuantityWriteForm, RegExp> = {
  compareQuantity: /\b(compareQuantity|ignoreCompareQuantity)\b/,
  changeFromQuantity: /\b(changeFromQuantity|idempotent)\b/,
};

/** One call: per-item user errors, or why the whole call failed (after the transport's own retries). */
async function send(port: ShopifyPort, items: Pending[], runId: string): Promise<Answer | Refused> {
  const { form, sure } = writeFormOf(port);
  const answer = await sendAs(port, { items, runId, form });
  if (sure || !("refused" in answer) || !FORM_NAMES[form].test(answer.refused)) return answer;
  // Refused before running (a validation error writes nothing), so the other form is safe to send.
  const other: QuantityWriteForm = form === "compareQuantity" ? "changeFromQuantity" : "compareQuantity";
  learnedForms.set(port, other);
  return sendAs(port, { items, runId, form: other });
}

async function sendAs(
  port: ShopifyPort,
  write: { items: Pending[]; runId: string; form: QuantityWriteForm },
): Promise<Answer | Refused> {
  const { items, runId, form } = write;
  // A fresh key per logical call: the transport's retries resend the same body (and key), so a
  // write whose answer was lost is replayed, not applied twice.
  const request = quantityWriteRequest(
    form,
    {
      name: items[0]!.name,
      referenceDocumentUri: `gid://stockbridge/SyncRun/${runId}`,
      quantities: items.map((item) => ({
        inventoryItemId: toGid("InventoryItem", item.inventoryItemId),
        locationId: toGid("Location", item.locationId),
        quantity: item.to,
        from: item.from,
      })),
    },
    crypto.randomUUID(),
  );
  try {
    const answer = await port.execute<{ inventorySetQuantities: unknown }>(request.query, request.variables);
    if (answer.errors.length > 0) {
      return {
        refused: answer.errors.map((error) => error.message).join("; "),
        input: answer.errors.some(
          (error) => error.code === "INVALID_VARIABLE" || error.message.startsWith("Variable $"),
        ),
      };
    }
    const payload = record(answer.data?.inventorySetQuantities);
    if (!payload) return { refused: "Shopify answered without a result", input: false };
    const result: Answer = { byIndex: new Map(), general: [] };
    for (const entry of (payload.userErrors as unknown[] | undefined) ?? []) {
      const error = record(entry);
      const code = text(error?.code) ?? "";
      const message = text(error?.message) ?? "Shopify refused the quantity";
      const field = Array.isArray(error?.field) ? error.field : [];
      const index = field[0] === "input" && field[1] === "quantities" ? Number(field[2]) : Number.NaN;
      if (Number.isInteger(index) && index >= 0 && index < items.length)
        result.byIndex.set(index, [...(result.byIndex.get(index) ?? []), { code, message }]);
      else result.general.push(message);
    }
    return result;
  } catch (error) {
    const message =
      error instanceof ShopifyError ? error.message : error instanceof Error ? error.message : String(error);
    return { refused: message, input: false };
  }
}
