import { checkBulkMutation, checkBulkQuery } from "./bulk-checks.ts";
import { startBulkWork } from "./bulk-runner.ts";
import { dateTime, gid, idOf } from "./gid.ts";
import type { BulkOperationRecord, BulkOperationType, RequestContext } from "./shop-state.ts";

/**
 * Bulk operations: `bulkOperationRunQuery` / `bulkOperationRunMutation` create a record whose work
 * starts at once and which completes `bulkDelayMs` of sandbox time later (see bulk-runner.ts);
 * results are JSONL files served under `/shopify/{store}/bulk-results/{id}.jsonl`.
 */
export function bulkOperationView(ctx: RequestContext, operation: BulkOperationRecord) {
  const done = operation.status === "COMPLETED";
  return {
    __typename: "BulkOperation",
    id: gid("BulkOperation", operation.id),
    status: operation.status,
    type: operation.type,
    query: operation.query,
    errorCode: operation.errorCode,
    createdAt: dateTime(operation.createdAt),
    completedAt: operation.completedAt === null ? null : dateTime(operation.completedAt),
    objectCount: String(operation.objectCount),
    rootObjectCount: String(operation.rootObjectCount),
    fileSize: operation.fileSize === null ? null : String(operation.fileSize),
    // Shopify gives no file when the operation produced no objects.
    url: done && operation.objectCount > 0 ? resultUrl(ctx, operation.id) : null,
    partialDataUrl: null,
  };
}

function resultUrl(ctx: RequestContext, id: number): string {
  return `${ctx.origin}/shopify/${ctx.shop.storeName}/bulk-results/${id}.jsonl`;
}

export function currentBulkOperation(ctx: RequestContext, type: BulkOperationType) {
  const operation = ctx.shop.bulkOperations.findLast((candidate) => candidate.type === type);
  return operation ? bulkOperationView(ctx, operation) : null;
}

export function bulkOperationById(ctx: RequestContext, id: string) {
  const wanted = idOf(id, "BulkOperation");
  const operation = ctx.shop.bulkOperations.find((candidate) => candidate.id === wanted);
  return operation ? bulkOperationView(ctx, operation) : null;
}

export function bulkOperationRunQuery(args: { query: string }, ctx: RequestContext) {
  const busy = inProgress(ctx, "QUERY");
  if (busy) return { bulkOperation: null, userErrors: [busy] };
  const problem = checkBulkQuery(ctx.schema, args.query);
  if (problem)
    return { bulkOperation: null, userErrors: [{ field: ["query"], message: problem, code: "INVALID" }] };
  return {
    bulkOperation: bulkOperationView(
      ctx,
      create(ctx, { type: "QUERY", query: args.query, stagedUploadPath: null }),
    ),
    userErrors: [],
  };
}

export function bulkOperationRunMutation(
  args: { mutation: string; stagedUploadPath: string; clientIdentifier?: string | null },
  ctx: RequestContext,
) {
  const busy = inProgress(ctx, "MUTATION");
  if (busy) return { bulkOperation: null, userErrors: [busy] };
  const problem = checkBulkMutation(ctx.schema, args.mutation);
  if (problem) {
    return {
      bulkOperation: null,
      userErrors: [{ field: ["mutation"], message: problem, code: "INVALID_MUTATION" }],
    };
  }
  const file = ctx.shop.uploads.get(args.stagedUploadPath);
  if (file === undefined) {
    const message =
      "The JSONL file could not be found. Try uploading the file again, and check that you've entered the URL correctly for the stagedUploadPath mutation argument.";
    return {
      bulkOperation: null,
      userErrors: [{ field: ["stagedUploadPath"], message, code: "NO_SUCH_FILE" }],
    };
  }
  const badLine = jsonlLines(file).findIndex((line) => !isJsonObject(line));
  if (badLine !== -1) {
    const message = `The JSONL file submitted via the stagedUploadsCreate mutation is invalid (line ${badLine + 1}). Update the file and try again.`;
    return {
      bulkOperation: null,
      userErrors: [{ field: ["stagedUploadPath"], message, code: "INVALID_STAGED_UPLOAD_FILE" }],
    };
  }
  const operation = create(ctx, {
    type: "MUTATION",
    query: args.mutation,
    stagedUploadPath: args.stagedUploadPath,
  });
  return { bulkOperation: bulkOperationView(ctx, operation), userErrors: [] };
}

export function bulkOperationCancel(args: { id: string }, ctx: RequestContext) {
  const wanted = idOf(args.id, "BulkOperation");
  const operation = ctx.shop.bulkOperations.find((candidate) => candidate.id === wanted);
  if (!operation)
    return { bulkOperation: null, userErrors: [{ field: ["id"], message: "Bulk operation does not exist" }] };
  if (operation.status !== "CREATED" && operation.status !== "RUNNING") {
    const message = `A bulk operation cannot be canceled when it is ${operation.status.toLowerCase()}`;
    return { bulkOperation: bulkOperationView(ctx, operation), userErrors: [{ field: null, message }] };
  }
  operation.status = "CANCELED";
  operation.completedAt = ctx.now;
  return { bulkOperation: bulkOperationView(ctx, operation), userErrors: [] };
}

/**
 * Before 2026-01 one query and one mutation may run per shop and app; since then five of each. The
 * refusal follows the served schema: one running answers OPERATION_IN_PROGRESS; where several may
 * run, the limit answers LIMIT_REACHED (in the schema's codes from 2025-10, with this text as its
 * description), so a client matching only "already in progress" does not get by.
 */
function inProgress(ctx: RequestContext, type: BulkOperationType) {
  const running = ctx.shop.bulkOperations.filter(
    (operation) =>
      operation.type === type && (operation.status === "CREATED" || operation.status === "RUNNING"),
  );
  if (running.length < ctx.version.bulkConcurrency) return null;
  ctx.shop.counters.bulkOperationsRefused += 1;
  if (ctx.version.bulkConcurrency > 1) {
    return {
      field: null,
      message: "Bulk operations limit reached. Please try again later.",
      code: "LIMIT_REACHED",
    };
  }
  const kind = type === "QUERY" ? "query" : "mutation";
  const id = gid("BulkOperation", running.at(-1)!.id);
  return {
    field: null,
    message: `A bulk ${kind} operation for this app and shop is already in progress: ${id}.`,
    code: "OPERATION_IN_PROGRESS",
  };
}

function create(
  ctx: RequestContext,
  {
    type,
    query,
    stagedUploadPath,
  }: { type: BulkOperationType; query: string; stagedUploadPath: string | null },
): BulkOperationRecord {
  const shop = ctx.shop;
  const operation: BulkOperationRecord = {
    id: shop.nextBulkOperationId++,
    type,
    status: "CREATED",
    query,
    version: ctx.version,
    stagedUploadPath,
    createdAt: ctx.now,
    dueAt: ctx.now + ctx.bulkDelayMs,
    completedAt: null,
    errorCode: null,
    objectCount: 0,
    rootObjectCount: 0,
    fileSize: null,
  };
  shop.bulkOperations.push(operation);
  shop.counters.bulkOperations += 1;
  startBulkWork(ctx, operation);
  return operation;
}

export function jsonlLines(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => line.trim() !== "");
}

function isJsonObject(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
