import { parse } from "graphql";
import { jsonlLines } from "./bulk-operations.ts";
import { executeOperation } from "./execute.ts";
import type { BulkOperationRecord, RequestContext, ShopState } from "./shop-state.ts";
import type { ApiVersion } from "./versions.ts";

/**
 * Completes the bulk operations whose time has come. Called before every request the store
 * answers (and before a result download), so nothing runs on timers and a test can finish an
 * operation by advancing the sandbox clock instead of sleeping.
 */
export function settleBulkOperations(
  shop: ShopState,
  now: number,
  contextFor: (version: ApiVersion) => RequestContext,
) {
  for (const operation of shop.bulkOperations) {
    if (operation.status !== "CREATED" && operation.status !== "RUNNING") continue;
    if (now < operation.dueAt) {
      operation.status = "RUNNING";
      continue;
    }
    const ctx = { ...contextFor(operation.version), bulk: true };
    const lines = operation.type === "QUERY" ? runQuery(ctx, operation) : runMutation(ctx, operation);
    const text = lines.length > 0 ? `${lines.join("\n")}\n` : "";
    shop.bulkResults.set(operation.id, text);
    operation.status = "COMPLETED";
    operation.completedAt = now;
    operation.objectCount = lines.length;
    operation.fileSize = lines.length > 0 ? new TextEncoder().encode(text).length : null;
  }
}

function runQuery(ctx: RequestContext, operation: BulkOperationRecord): string[] {
  const { result } = executeOperation(ctx, parse(operation.query), {});
  const lines: string[] = [];
  let roots = 0;
  for (const value of Object.values(result.data ?? {})) {
    for (const node of connectionNodes(value) ?? [value]) {
      if (typeof node !== "object" || node === null) continue;
      roots += 1;
      emit(node as Record<string, unknown>, undefined, lines);
    }
  }
  operation.rootObjectCount = roots;
  return lines;
}

/** One result line per input line: `{"data": …, "__lineNumber": n}` (errors included when any). */
function runMutation(ctx: RequestContext, operation: BulkOperationRecord): string[] {
  const document = parse(operation.query);
  const file = ctx.shop.uploads.get(operation.stagedUploadPath ?? "") ?? "";
  const lines = jsonlLines(file).map((line, index) => {
    const variables = JSON.parse(line) as Record<string, unknown>;
    const { result } = executeOperation(ctx, document, variables);
    const errors = result.errors?.map((error) => error.toJSON());
    return JSON.stringify({ ...(errors ? { errors } : {}), data: result.data ?? null, __lineNumber: index });
  });
  operation.rootObjectCount = lines.length;
  return lines;
}

/**
 * Each connection node becomes its own line; a nested connection's nodes follow their parent's
 * line with `__parentId` naming it, and the connection field is left out of the parent.
 */
function emit(node: Record<string, unknown>, parentId: unknown, lines: string[]) {
  const children: Record<string, unknown>[] = [];
  const flat = strip(node, children) as Record<string, unknown>;
  lines.push(JSON.stringify(parentId === undefined ? flat : { ...flat, __parentId: parentId }));
  for (const child of children) emit(child, node.id, lines);
}

function strip(value: unknown, children: Record<string, unknown>[]): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item, children));
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const nodes = connectionNodes(inner);
    if (nodes) {
      for (const child of nodes)
        if (typeof child === "object" && child !== null) children.push(child as Record<string, unknown>);
    } else {
      copy[key] = strip(inner, children);
    }
  }
  return copy;
}

/** The nodes of a connection-shaped value (`edges[].node` or `nodes[]`), else null. */
function connectionNodes(value: unknown): unknown[] | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const record = value as { edges?: unknown; nodes?: unknown };
  if (Array.isArray(record.nodes)) return record.nodes;
  if (Array.isArray(record.edges)) {
    return record.edges.map((edge) =>
      typeof edge === "object" && edge !== null ? (edge as { node?: unknown }).node : null,
    );
  }
  return null;
}
