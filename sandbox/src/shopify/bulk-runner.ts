import { type ArgumentNode, type DocumentNode, type FieldNode, Kind, parse } from "graphql";
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
  const document = parse(operation.query);
  const lines: string[] = [];
  let roots = 0;
  const emitRoots = (data: Record<string, unknown> | null | undefined) => {
    for (const value of Object.values(data ?? {})) {
      for (const node of connectionNodes(value) ?? [value]) {
        if (!isRecord(node)) continue;
        roots += 1;
        emit(node, undefined, lines);
      }
    }
  };
  const root = singleRootField(document);
  if (!root) {
    emitRoots(executeOperation(ctx, document, {}).result.data);
  } else {
    // A whole catalog is read a chunk of root nodes at a time, so memory holds one chunk's tree.
    let after: string | null = null;
    for (;;) {
      const { result } = executeOperation(ctx, withRootPage(document, root, after), {});
      const data = result.data ?? {};
      const key = root.alias?.value ?? root.name.value;
      const connection = data[key];
      emitRoots({ [key]: connection });
      const page = isRecord(connection) ? connection[PAGE_ALIAS] : undefined;
      if (!isRecord(page) || page.hasNextPage !== true || typeof page.endCursor !== "string") break;
      after = page.endCursor;
    }
  }
  operation.rootObjectCount = roots;
  return lines;
}

const CHUNK = 2_000;
const PAGE_ALIAS = "__bulkPage";

function singleRootField(document: DocumentNode): FieldNode | null {
  const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  if (operation?.kind !== Kind.OPERATION_DEFINITION) return null;
  const fields = operation.selectionSet.selections;
  return fields.length === 1 && fields[0]!.kind === Kind.FIELD ? fields[0]! : null;
}

/** The document with the root connection asked for one chunk after `after`, plus its pageInfo. */
function withRootPage(document: DocumentNode, root: FieldNode, after: string | null): DocumentNode {
  const name = (value: string) => ({ kind: Kind.NAME, value }) as const;
  const leaf = (value: string): FieldNode => ({ kind: Kind.FIELD, name: name(value) });
  const paging = new Set(["first", "last", "after", "before"]);
  const args: ArgumentNode[] = [
    ...(root.arguments ?? []).filter((argument) => !paging.has(argument.name.value)),
    { kind: Kind.ARGUMENT, name: name("first"), value: { kind: Kind.INT, value: String(CHUNK) } },
    ...(after ? [{ kind: Kind.ARGUMENT, name: name("after"), value: { kind: Kind.STRING, value: after } } as const] : []),
  ];
  const pageInfo: FieldNode = {
    kind: Kind.FIELD,
    alias: name(PAGE_ALIAS),
    name: name("pageInfo"),
    selectionSet: { kind: Kind.SELECTION_SET, selections: [leaf("hasNextPage"), leaf("endCursor")] },
  };
  const paged: FieldNode = {
    ...root,
    arguments: args,
    selectionSet: {
      kind: Kind.SELECTION_SET,
      selections: [...(root.selectionSet?.selections ?? []), pageInfo],
    },
  };
  return {
    ...document,
    definitions: document.definitions.map((definition) =>
      definition.kind === Kind.OPERATION_DEFINITION
        ? { ...definition, selectionSet: { kind: Kind.SELECTION_SET, selections: [paged] } }
        : definition,
    ),
  };
}

/** One result line per input line: `{"data": …, "__lineNumber": n}` (errors included when any). */
function runMutation(ctx: RequestContext, operation: BulkOperationRecord): string[] {
  const document = parse(operation.query);
  const file = ctx.shop.uploads.get(operation.stagedUploadPath ?? "") ?? "";
  const lines = jsonlLines(file).map((line, index) => {
    // Every line was checked to be a JSON object when the operation was created.
    const parsed: unknown = JSON.parse(line);
    const { result } = executeOperation(ctx, document, isRecord(parsed) ? parsed : {});
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
  const flat = stripRecord(node, children);
  lines.push(JSON.stringify(parentId === undefined ? flat : { ...flat, __parentId: parentId }));
  for (const child of children) emit(child, node.id, lines);
}

function stripRecord(record: Record<string, unknown>, children: Record<string, unknown>[]) {
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(record)) {
    const nodes = connectionNodes(inner);
    if (nodes) children.push(...nodes.filter(isRecord));
    else copy[key] = strip(inner, children);
  }
  return copy;
}

function strip(value: unknown, children: Record<string, unknown>[]): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item, children));
  return isRecord(value) ? stripRecord(value, children) : value;
}

/** The nodes of a connection-shaped value (`edges[].node` or `nodes[]`), else null. */
function connectionNodes(value: unknown): unknown[] | null {
  if (!isRecord(value)) return null;
  if (Array.isArray(value.nodes)) return value.nodes;
  if (Array.isArray(value.edges)) return value.edges.map((edge) => (isRecord(edge) ? edge.node : null));
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
