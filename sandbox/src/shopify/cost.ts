import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  isLeafType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

/**
 * Shopify's documented cost rules: scalars and enums 0, objects 1, interfaces/unions the max of
 * their possible selections, connections 2 + (first|last) x the cost of one node, mutations 10.
 * The requested cost is the worst case of the operation; the actual cost is counted while it runs.
 */
export const MUTATION_COST = 10;

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

export function requestedCost(
  schema: GraphQLSchema,
  {
    operation,
    fragments,
    variables,
  }: {
    operation: OperationDefinitionNode;
    fragments: readonly FragmentDefinitionNode[];
    variables: Record<string, unknown>;
  },
): number {
  if (operation.operation === "mutation") {
    return (
      operation.selectionSet.selections.filter((selection) => selection.kind === Kind.FIELD).length *
      MUTATION_COST
    );
  }
  const walk: Walk = { schema, fragments: new Map(fragments.map((f) => [f.name.value, f])), variables };
  const root = schema.getQueryType();
  return root ? selectionCost(walk, operation.selectionSet, root) : 0;
}

function selectionCost(walk: Walk, set: SelectionSetNode, type: GraphQLCompositeType): number {
  if (!isAbstractType(type)) return fieldsCost(walk, set, type);
  // Abstract: the most expensive of the concrete types the selection narrows to.
  let best = fieldsCost(walk, set, type);
  for (const name of typeConditions(walk, set)) {
    const candidate = walk.schema.getType(name);
    if (isObjectType(candidate) && walk.schema.isSubType(type, candidate)) {
      best = Math.max(best, fieldsCost(walk, set, candidate));
    }
  }
  return best;
}

function fieldsCost(walk: Walk, set: SelectionSetNode, type: GraphQLCompositeType): number {
  let total = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) total += fieldCost(walk, selection, type);
    else {
      const fragment =
        selection.kind === Kind.INLINE_FRAGMENT ? selection : walk.fragments.get(selection.name.value);
      if (!fragment) continue;
      const condition = fragment.typeCondition?.name.value;
      if (applies(walk, condition, type)) total += fieldsCost(walk, fragment.selectionSet, type);
    }
  }
  return total;
}

function applies(walk: Walk, condition: string | undefined, type: GraphQLCompositeType): boolean {
  if (!condition || condition === type.name) return true;
  const conditionType = walk.schema.getType(condition);
  return isObjectType(type) && isAbstractType(conditionType) && walk.schema.isSubType(conditionType, type);
}

function typeConditions(walk: Walk, set: SelectionSetNode, seen = new Set<string>()): Set<string> {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) continue;
    const fragment =
      selection.kind === Kind.INLINE_FRAGMENT ? selection : walk.fragments.get(selection.name.value);
    const condition = fragment?.typeCondition?.name.value;
    if (condition) seen.add(condition);
    if (fragment) typeConditions(walk, fragment.selectionSet, seen);
  }
  return seen;
}

function fieldCost(walk: Walk, node: FieldNode, parent: GraphQLCompositeType): number {
  const name = node.name.value;
  if (name.startsWith("__") || !("getFields" in parent)) return 0;
  const field = parent.getFields()[name];
  if (!field) return 0;
  const type = getNamedType(field.type);
  if (isLeafType(type) || !isCompositeType(type) || !node.selectionSet) return 0;
  const args = argumentsOf(walk, field, node);
  if (isConnection(type)) {
    const size = numberArg(args.first) ?? numberArg(args.last) ?? 0;
    return 2 + size * connectionNodeCost(walk, node.selectionSet, type);
  }
  const one = 1 + selectionCost(walk, node.selectionSet, type);
  // `nodes(ids:)` and friends: one object per id asked for.
  return Array.isArray(args.ids) ? one * args.ids.length : one;
}

/** Cost of one node of a connection: through `edges { node }` or `nodes` (pageInfo is free). */
function connectionNodeCost(walk: Walk, set: SelectionSetNode, connection: GraphQLCompositeType): number {
  let best = 0;
  const fields = "getFields" in connection ? connection.getFields() : {};
  for (const selection of flatten(walk, set)) {
    const name = selection.name.value;
    if (name === "nodes" && selection.selectionSet && fields.nodes) {
      const type = getNamedType(fields.nodes.type);
      if (isCompositeType(type)) best = Math.max(best, 1 + selectionCost(walk, selection.selectionSet, type));
    }
    if (name === "edges" && selection.selectionSet && fields.edges) {
      const edge = getNamedType(fields.edges.type);
      const nodeField = isObjectType(edge) ? edge.getFields().node : undefined;
      const nodeType = nodeField ? getNamedType(nodeField.type) : undefined;
      for (const inner of flatten(walk, selection.selectionSet)) {
        if (inner.name.value === "node" && inner.selectionSet && nodeType && isCompositeType(nodeType)) {
          best = Math.max(best, 1 + selectionCost(walk, inner.selectionSet, nodeType));
        }
      }
    }
  }
  return best;
}

function flatten(walk: Walk, set: SelectionSetNode): FieldNode[] {
  const fields: FieldNode[] = [];
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) fields.push(selection);
    else {
      const fragment =
        selection.kind === Kind.INLINE_FRAGMENT ? selection : walk.fragments.get(selection.name.value);
      if (fragment) fields.push(...flatten(walk, fragment.selectionSet));
    }
  }
  return fields;
}

function argumentsOf(
  walk: Walk,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
): Record<string, unknown> {
  try {
    return getArgumentValues(field, node, walk.variables);
  } catch {
    return {};
  }
}

function numberArg(value: unknown): number | null {
  return typeof value === "number" ? Math.max(0, value) : null;
}

export function isConnection(type: GraphQLNamedType): boolean {
  if (!isObjectType(type) && !isInterfaceType(type)) return false;
  const fields = type.getFields();
  return type.name.endsWith("Connection") && "pageInfo" in fields && ("edges" in fields || "nodes" in fields);
}
