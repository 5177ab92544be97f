import { type ArgumentNode, type DocumentNode, type FieldNode, Kind, parse } from "graphql";
import { jsonlLines } from "./bulk-operations.ts";
import { executeOperation } from "./execute.ts";
import type { BulkOperationRecord, RequestContext } from "./shop-state.ts";

/** Root nodes read per step: memory holds one chunk's result tree, and the server breathes between steps. */
const CHUNK = 500;
/** Input lines run per step of a bulk mutation. */
const MUTATION_LINES_PER_STEP = 500;
const PAGE_ALIAS = "__bulkPage";

export interface BulkOutput {
  lines: string[];
  roots: number;
}

/**
 * A bulk query's JSONL, one chunk of root nodes per step. Each connection node is a line; a
 * nested connection's nodes follow their parent's line with `__parentId`, and the connection
 * field is left out of the parent (https://shopify.dev/docs/api/usage/bulk-operations/queries).
 */
export function* queryLines(
  ctx: RequestContext,
  operation: BulkOperationRecord,
  out: BulkOutput,
): Generator<void> {
  const document = parse(operation.query);
  const root = singleRootField(document);
  if (!root) {
    emitRoots(executeOperation(ctx, { document, variables: {} }).result.data, out);
    return;
  }
  const key = root.alias?.value ?? root.name.value;
  let after: string | null = null;
  for (;;) {
    const { result } = executeOperation(ctx, {
      document: withRootPage(document, root, after),
      variables: {},
    });
    const connection = result.data?.[key];
    emitRoots({ [key]: connection }, out);
    const page = isRecord(connection) ? connection[PAGE_ALIAS] : undefined;
    if (!isRecord(page) || page.hasNextPage !== true || typeof page.endCursor !== "string") return;
    after = page.endCursor;
    yield;
  }
}

/** A bulk mutation's result: one line per input line, `{"data": …, "__lineNumber": n}`. */
export function* mutationLines(
  ctx: RequestContext,
  operation: BulkOperationRecord,
  out: BulkOutput,
): Generator<void> {
  const document = parse(operation.query);
  const inputs = jsonlLines(ctx.shop.uploads.get(operation.stagedUploadPath ?? "") ?? "");
  for (const [index, line] of inputs.entries()) {
    // Every line was checked to be a JSON object when the operation was created.
    const parsed: unknown = JSON.parse(line);
    const { result } = executeOperation(ctx, { document, variables: isRecord(parsed) ? parsed : {} });
    const errors = result.errors?.map((error) => error.toJSON());
    out.lines.push(
      JSON.stringify({ ...(errors ? { errors } : {}), data: result.data ?? null, __lineNumber: index }),
    );
    out.roots += 1;
    if ((index + 1) % MUTATION_LINES_PER_STEP === 0) yield;
  }
}

function emitRoots(data: Record<string, unknown> | null | undefined, out: BulkOutput) {
  for (const value of Object.values(data ?? {})) {
    for (const node of connectionNodes(value) ?? [value]) {
      if (!isRecord(node)) continue;
      out.roots += 1;
      emit(node, undefined, out.lines);
    }
  }
}

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

function singleRootField(document: DocumentNode): FieldNode | null {
  const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  if (operation?.kind !== Kind.OPERATION_DEFINITION) return null;
  const [field, ...rest] = operation.selectionSet.selections;
  return field?.kind === Kind.FIELD && rest.length === 0 ? field : null;
}

/** The document with its root connection asked for one chunk after `after`, plus its pageInfo. */
function withRootPage(document: DocumentNode, root: FieldNode, after: string | null): DocumentNode {
  const name = (value: string) => ({ kind: Kind.NAME, value }) as const;
  const leaf = (value: string): FieldNode => ({ kind: Kind.FIELD, name: name(value) });
  const argument = (key: string, value: ArgumentNode["value"]): ArgumentNode => ({
    kind: Kind.ARGUMENT,
    name: name(key),
    value,
  });
  const paging = new Set(["first", "last", "after", "before"]);
  const args = [
    ...(root.arguments ?? []).filter((existing) => !paging.has(existing.name.value)),
    argument("first", { kind: Kind.INT, value: String(CHUNK) }),
    ...(after ? [argument("after", { kind: Kind.STRING, value: after })] : []),
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
