import { type BulkOutput, mutationLines, queryLines } from "./bulk-jsonl.ts";
import type { BulkOperationRecord, RequestContext, ShopState } from "./shop-state.ts";
import type { ApiVersion } from "./versions.ts";

export interface SettleOptions {
  now(): number;
  contextFor(version: ApiVersion): RequestContext;
}

/** Operations whose work has started, so a second settle does not start them again. */
const started = new WeakSet<BulkOperationRecord>();

/**
 * Starts the bulk operations whose time has come; called before every request the store answers
 * and before a result download, so a test finishes an operation by advancing the sandbox clock.
 * Work runs one chunk per step: a small store completes within the call, a large one continues
 * between requests (one step per event-loop turn) so the rest of the sandbox keeps answering.
 */
export function settleBulkOperations(shop: ShopState, options: SettleOptions) {
  const now = options.now();
  for (const operation of shop.bulkOperations) {
    if (operation.status !== "CREATED" && operation.status !== "RUNNING") continue;
    operation.status = "RUNNING";
    if (now < operation.dueAt || started.has(operation)) continue;
    started.add(operation);
    const ctx = { ...options.contextFor(operation.version), bulk: true };
    const out: BulkOutput = { lines: [], roots: 0 };
    const steps =
      operation.type === "QUERY" ? queryLines(ctx, operation, out) : mutationLines(ctx, operation, out);
    const finish = () => complete(shop, { operation, out, now: options.now() });
    if (step(shop, operation, steps)) finish();
    else pump(shop, { operation, steps, finish });
  }
}

/** Runs one step; true when the work is done (or no longer wanted). */
function step(shop: ShopState, operation: BulkOperationRecord, steps: Generator<void>): boolean {
  if (shop.closed || operation.status !== "RUNNING") return true;
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
