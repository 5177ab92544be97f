import { record } from "../../lib/json.ts";
import { readLines } from "../stream-text.ts";
import { backoffMs } from "../transport.ts";
import { followBulkOperation, isBulkLimitRefusal, waitForBulkSlot } from "./bulk-operations.ts";
import type { BulkOperationType } from "./bulk-slots.ts";
import { text } from "./gid.ts";
import { ShopifyError } from "./graphql-client.ts";
import type { ShopifyPort } from "./port.ts";
import { recordBulk } from "./strategy.ts";
import { STAGED_UPLOADS_CREATE_MUTATION } from "./sync-operations.ts";

const FIRST_POLL_MS = 100;
const MAX_POLL_MS = 5_000;
/**
 * Pauses grow by a fifth: a poll costs a point, and an operation's end is seen within a fifth of
 * its time (by half, a 0.5 s export was seen done at 0.81 s).
 */
const POLL_GROWTH = 1.2;
/** A bulk operation that has not finished after this long is given up on (Shopify allows 10 days; a sync does not wait that long). */
const MAX_WAIT_MS = 60 * 60_000;
const FILE_ATTEMPTS = 4;

/**
 * Takes one of the store's bulk slots (shared with every job of every instance; waits while all are
 * held), launches a bulk query or mutation with the variables `prepare` makes (after the slot, so a
 * staged upload is not made for nothing), follows it until it ends and hands `onLine` the result
 * file's lines as they stream in (none when it produced no objects): a whole store's export is never
 * held as one string. False when no slot came free in time or Shopify says one is already running,
 * so the caller can fall back to paced calls.
 */
export async function runBulkOperation(
  port: ShopifyPort,
  launch: {
    type: BulkOperationType;
    launch: string;
    prepare: () => Promise<Record<string, unknown>>;
  },
  onLine: (line: string) => void,
): Promise<boolean> {
  const slot = await waitForBulkSlot(port.bulkSlots, {
    type: launch.type,
    servedVersion: port.servedVersion,
    clock: port.clock,
  });
  if (!slot) return false;
  const started = port.clock.now();
  try {
    const answer = await port.execute<Record<string, unknown>>(launch.launch, await launch.prepare());
    if (answer.errors.length > 0)
      throw new ShopifyError(
        `Shopify refused the bulk operation: ${answer.errors.map((e) => e.message).join("; ")}`,
        "graphql",
      );
    const payload = record(Object.values(answer.data ?? {})[0]);
    const userErrors = (payload?.userErrors as unknown[] | undefined) ?? [];
    if (userErrors.length > 0) {
      const message = userErrors.map((error) => text(record(error)?.message) ?? "").join("; ");
      if (isBulkLimitRefusal(message)) return false;
      throw new ShopifyError(`Shopify refused the bulk operation: ${message}`, "graphql");
    }
    const id = text(record(payload?.bulkOperation)?.id);
    if (!id) throw new ShopifyError("Shopify started a bulk operation without an id", "graphql");

    const state = await followBulkOperation(port.execute, {
      id,
      type: launch.type,
      servedVersion: port.servedVersion,
      clock: port.clock,
      slot,
      firstPollMs: FIRST_POLL_MS,
      maxPollMs: MAX_POLL_MS,
      pollGrowth: POLL_GROWTH,
      maxWaitMs: MAX_WAIT_MS,
    });
    if (state.status !== "COMPLETED") {
      const code = state.errorCode;
      throw new ShopifyError(
        `Shopify's bulk operation ended ${state.status}${code ? ` (${code})` : ""}`,
        "graphql",
      );
    }
    if (state.url) await streamLines(port, state.url, onLine);
    // The next run weighs its bulk operations by this one's time, launch to result.
    recordBulk(port.costs, { type: launch.type, ms: port.clock.now() - started, objects: state.objectCount });
    return true;
  } finally {
    await slot.release();
  }
}

/** Uploads a JSONL file of mutation variables to Shopify's staged upload target; answers its `stagedUploadPath`. */
export async function stageJsonl(port: ShopifyPort, filename: string, content: string): Promise<string> {
  const answer = await port.execute<{ stagedUploadsCreate: unknown }>(STAGED_UPLOADS_CREATE_MUTATION, {
    input: [{ resource: "BULK_MUTATION_VARIABLES", filename, mimeType: "text/jsonl", httpMethod: "POST" }],
  });
  const target = record(
    (record(answer.data?.stagedUploadsCreate)?.stagedTargets as unknown[] | undefined)?.[0],
  );
  const url = text(target?.url);
  const parameters = ((target?.parameters as unknown[] | undefined) ?? [])
    .map(record)
    .filter((p) => p !== null);
  const key = parameters.find((parameter) => parameter.name === "key");
  if (answer.errors.length > 0 || !url || !key) {
    throw new ShopifyError(
      `Shopify gave no upload target: ${answer.errors.map((e) => e.message).join("; ") || "no staged target"}`,
      "graphql",
    );
  }
  await withFileRetries(port, "upload the bulk file", async () => {
    const form = new FormData();
    for (const parameter of parameters) form.append(String(parameter.name), String(parameter.value));
    form.append("file", new Blob([content], { type: "text/jsonl" }), filename);
    return port.fetch(url, { method: "POST", body: form });
  });
  return String(key.value);
}

/** The result file line by line (the download is retried until its body starts, not midway). */
async function streamLines(port: ShopifyPort, url: string, onLine: (line: string) => void): Promise<void> {
  const response = await withFileRetries(port, "download the bulk result", () => port.fetch(url));
  if (!response.body) return;
  for await (const line of readLines(response.body)) onLine(line);
}

/** Storage hiccups (5xx, network) are retried with back-off; anything else is Shopify's answer. */
async function withFileRetries(
  port: ShopifyPort,
  what: string,
  send: () => Promise<Response>,
): Promise<Response> {
  let lastReason = "";
  for (let attempt = 0; attempt < FILE_ATTEMPTS; attempt += 1) {
    if (attempt > 0) await port.clock.sleep(backoffMs(attempt));
    try {
      const response = await send();
      if (response.ok) return response;
      lastReason = `HTTP ${response.status}`;
      await response.body?.cancel();
      if (response.status < 500 && response.status !== 429) break;
    } catch (error) {
      lastReason = error instanceof Error ? error.message : String(error);
    }
  }
  throw new ShopifyError(`Could not ${what} (${lastReason})`, "unavailable");
}
