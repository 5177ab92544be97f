import { type BulkOutput, mutationLines, queryLines } from "./bulk-jsonl.ts";
import type { BulkOperationRecord, RequestContext, ShopState } from "./shop-state.ts";

/** Each operation's work: its output so far, and whether it is done. */
const work = new WeakMap<BulkOperationRecord, { out: BulkOutput; done: boolean }>();

/**
 * Starts an operation's work at its launch, in the background as Shopify runs it: one chunk per
 * step, one step per event-loop turn, so the rest of the sandbox keeps answering. Its result waits
 * until the operation is due (`bulkOperationDelayMs` of sandbox time after the launch).
 */
export function startBulkWork(ctx: RequestContext, operation: BulkOperationRecord) {
  const shop = ctx.shop;
  const out: BulkOutput = { lines: [], roots: 0 };
  const progress = { out, done: false };
  work.set(operation, progress);
  const bulkContext = { ...ctx, bulk: true };
  const steps =
    operation.type === "QUERY"
      ? queryLines(bulkContext, operation, out)
      : mutationLines(bulkContext, operation, out);
  pump(shop, {
    operation,
    steps,
    finish: () => {
      progress.done = true;
    },
  });
}

/**
 * Completes the operations that are due and whose work is done; called before every request the
 * store answers and before a result download, so a test finishes an operation by advancing the
 * sandbox clock (and real time passes for the work itself).
 */
export function settleBulkOperations(shop: ShopState, options: { now(): number }) {
  const now = options.now();
  for (const operation of shop.bulkOperations) {
    if (operation.status !== "CREATED" && operation.status !== "RUNNING") continue;
    operation.status = "RUNNING";
    const progress = work.get(operation);
    if (now < operation.dueAt || !progress?.done) continue;
    complete(shop, { operation, out: progress.out, now });
  }
}

/** Runs one step; true when the work is done (or no longer wanted). */
function step(shop: ShopState, operation: BulkOperationRecord, steps: Generator<void>): boolean {
  if (shop.closed || (operation.status !== "CREATED" && operation.status !== "RUNNING")) return true;
  return steps.next().done === true;
}

function pump(
  shop: ShopState,
  {
    operation,
    steps,
    finish,
  }: { operation: BulkOperationRecord; steps: Generator<void>; finish: () => void },
) {
  setTimeout(() => {
    if (step(shop, operation, steps)) finish();
    else pump(shop, { operation, steps, finish });
  }, 0);
}

function complete(
  shop: ShopState,
  { operation, out, now }: { operation: BulkOperationRecord; out: BulkOutput; now: number },
) {
  // A cancel (or a sandbox reset) while the work ran wins over the result.
  if (shop.closed || operation.status !== "RUNNING") return;
  const text = out.lines.length > 0 ? `${out.lines.join("\n")}\n` : "";
  shop.bulkResults.set(operation.id, text);
  operation.status = "COMPLETED";
  operation.completedAt = now;
  operation.objectCount = out.lines.length;
  operation.rootObjectCount = out.roots;
  operation.fileSize = out.lines.length > 0 ? new TextEncoder().encode(text).length : null;
}
