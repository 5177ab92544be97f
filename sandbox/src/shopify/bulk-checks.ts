import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  getNamedType,
  isCompositeType,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
  validate,
} from "graphql";
import { isConnection } from "./cost.ts";
import { shopifyError } from "./graphql-errors.ts";

/** Inner mutations this simulator can run in bulk (the ones it implements). */
const BULK_MUTATIONS = ["productVariantsBulkUpdate", "inventorySetQuantities", "inventoryActivate"];

const MAX_CONNECTIONS = 5;
const MAX_NESTING = 2;

/** Why a bulk query would be rejected (Shopify's documented limits), or null when it is fine. */
export function checkBulkQuery(schema: GraphQLSchema, query: string): string | null {
  const parsed = parseAndValidate(schema, query, "Invalid bulk query");
  if (typeof parsed === "string") return parsed;
  const { operation, fragments } = parsed;
  if (operation.operation !== "query") return "Invalid bulk query: bulk queries must be a query operation.";
  if (operation.variableDefinitions?.length) return "Invalid bulk query: bulk queries cannot use variables.";
  const root = schema.getQueryType()!;
  const topLevel = fieldsOf(operation.selectionSet, fragments);
  if (topLevel.some((field) => field.name.value === "node" || field.name.value === "nodes")) {
    return "Invalid bulk query: the top-level 'node' and 'nodes' fields are not supported by bulk queries.";
  }
  const walk = { connections: 0, tooDeep: false, withoutId: [] as string[], fragments };
  visit(walk, { set: operation.selectionSet, type: root, depth: 0, nodeHasId: true });
  if (walk.connections === 0) return "Invalid bulk query: bulk queries must contain at least one connection.";
  if (walk.connections > MAX_CONNECTIONS) {
    return `Invalid bulk query: bulk queries cannot contain more than ${MAX_CONNECTIONS} connections.`;
  }
  if (walk.tooDeep) {
    return `Invalid bulk query: bulk queries cannot contain connections with a nesting depth greater than ${MAX_NESTING}.`;
  }
  if (walk.withoutId.length > 0) {
    return `Invalid bulk query: the parent 'node' field for a nested connection must select the 'id' field. Connection fields without 'id': ${walk.withoutId.join(", ")}.`;
  }
  return null;
}

/** Why a bulk mutation would be rejected, or null: one root field of an allowed mutation. */
export function checkBulkMutation(schema: GraphQLSchema, mutation: string): string | null {
  const parsed = parseAndValidate(schema, mutation, "Failed to parse the mutation");
  if (typeof parsed === "string") return parsed;
  const { operation, fragments } = parsed;
  const fields = fieldsOf(operation.selectionSet, fragments);
  if (operation.operation !== "mutation" || fields.length !== 1) {
    return "Bulk mutations must be a mutation operation with exactly one mutation field.";
  }
  const name = fields[0]!.name.value;
  if (!BULK_MUTATIONS.includes(name)) {
    return `You must use an allowed mutation name. The sandbox runs these in bulk: ${BULK_MUTATIONS.join(", ")}.`;
  }
  return null;
}

interface Parsed {
  operation: OperationDefinitionNode;
  fragments: Map<string, FragmentDefinitionNode>;
}

function parseAndValidate(schema: GraphQLSchema, text: string, prefix: string): Parsed | string {
  let document: DocumentNode;
  try {
    document = parse(text);
  } catch (error) {
    return `${prefix}: ${error instanceof Error ? error.message : String(error)}`;
  }
  const errors = validate(schema, document);
  if (errors.length > 0) return `${prefix}: ${errors.map((error) => shopifyError(error).message).join("; ")}`;
  const operations = document.definitions.filter(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (operations.length !== 1) return `${prefix}: exactly one operation is required.`;
  const fragments = new Map(
    document.definitions
      .filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  return { operation: operations[0]!, fragments };
}

interface Walk {
  connections: number;
  tooDeep: boolean;
  withoutId: string[];
  fragments: Map<string, FragmentDefinitionNode>;
}

function visit(
  walk: Walk,
  {
    set,
    type,
    depth,
    nodeHasId,
  }: { set: SelectionSetNode; type: GraphQLCompositeType; depth: number; nodeHasId: boolean },
) {
  if (!("getFields" in type)) return;
  for (const field of fieldsOf(set, walk.fragments)) {
    const definition = type.getFields()[field.name.value];
    if (!definition || !field.selectionSet) continue;
    const named = getNamedType(definition.type);
    if (!isCompositeType(named)) continue;
    if (!isConnection(named)) {
      visit(walk, { set: field.selectionSet, type: named, depth, nodeHasId });
      continue;
    }
    walk.connections += 1;
    if (depth + 1 > MAX_NESTING) walk.tooDeep = true;
    if (depth >= 1 && !nodeHasId) walk.withoutId.push(field.name.value);
    for (const node of nodeSelections(walk, field.selectionSet, named)) {
      const hasId = fieldsOf(node.set, walk.fragments).some((inner) => inner.name.value === "id");
      visit(walk, { set: node.set, type: node.type, depth: depth + 1, nodeHasId: hasId });
    }
  }
}

/** The per-node selections of a connection: `edges { node { … } }` and `nodes { … }`. */
function nodeSelections(walk: Walk, set: SelectionSetNode, connection: GraphQLCompositeType) {
  const found: { set: SelectionSetNode; type: GraphQLCompositeType }[] = [];
  if (!("getFields" in connection)) return found;
  const connectionFields = connection.getFields();
  for (const field of fieldsOf(set, walk.fragments)) {
    const definition = connectionFields[field.name.value];
    if (!definition || !field.selectionSet) continue;
    const named = getNamedType(definition.type);
    if (!isCompositeType(named)) continue;
    if (field.name.value === "nodes") found.push({ set: field.selectionSet, type: named });
    if (field.name.value === "edges" && "getFields" in named) {
      const nodeDefinition = named.getFields().node;
      const nodeType = nodeDefinition ? getNamedType(nodeDefinition.type) : undefined;
      for (const inner of fieldsOf(field.selectionSet, walk.fragments)) {
        if (inner.name.value === "node" && inner.selectionSet && nodeType && isCompositeType(nodeType)) {
          found.push({ set: inner.selectionSet, type: nodeType });
        }
      }
    }
  }
  return found;
}

function fieldsOf(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): FieldNode[] {
  const fields: FieldNode[] = [];
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) fields.push(selection);
    else {
      const fragment =
        selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
      if (fragment) fields.push(...fieldsOf(fragment.selectionSet, fragments));
    }
  }
  return fields;
}
