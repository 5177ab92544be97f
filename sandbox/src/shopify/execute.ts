import {
  type DocumentNode,
  defaultFieldResolver,
  type ExecutionResult,
  executeSync,
  GraphQLError,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  getNamedType,
  isLeafType,
} from "graphql";
import { isConnection, MUTATION_COST } from "./cost.ts";
import { MUTATION_FIELDS } from "./mutation-root.ts";
import { QUERY_FIELDS } from "./query-root.ts";
import type { RequestContext } from "./shop-state.ts";

type RootResolver = (args: never, ctx: RequestContext, info: GraphQLResolveInfo) => unknown;

const ROOT_FIELDS: Record<string, RootResolver> = { ...QUERY_FIELDS, ...MUTATION_FIELDS };

/** "Input arguments that accept an array have a maximum size of 250 for all APIs." */
const MAX_INPUT_ARRAY = 250;

export interface Execution {
  result: ExecutionResult;
  /** Points the answer actually cost (connections by the nodes returned). */
  actualCost: number;
  /** Mutation root fields that ran. */
  mutations: number;
  /** Every root field that ran, by name (fragments and aliases included). */
  rootFields: Record<string, number>;
}

/** Runs a validated document against the store; resolvers are synchronous over in-memory state. */
export function executeOperation(
  ctx: RequestContext,
  {
    document,
    variables,
    operationName,
  }: { document: DocumentNode; variables: Record<string, unknown>; operationName?: string },
): Execution {
  const tally = { cost: 0, mutations: 0, rootFields: {} as Record<string, number> };
  const fieldResolver: GraphQLFieldResolver<unknown, RequestContext> = (source, args, context, info) => {
    const isMutation = info.operation.operation === "mutation";
    let value: unknown;
    if (info.path.prev === undefined) {
      const resolver = ROOT_FIELDS[info.fieldName];
      if (!resolver) {
        throw new GraphQLError(
          `The Stockbridge sandbox does not simulate ${info.parentType.name}.${info.fieldName}.`,
        );
      }
      checkInputArrays(args);
      tally.rootFields[info.fieldName] = (tally.rootFields[info.fieldName] ?? 0) + 1;
      if (isMutation) {
        tally.cost += MUTATION_COST;
        tally.mutations += 1;
      }
      value = callRoot(resolver, { args, ctx: context, info });
    } else {
      value = defaultFieldResolver(source, args, context, info);
    }
    // Bulk operations run outside the bucket: no need to count what they return.
    if (!isMutation && !context.bulk) tally.cost += actualCostOf(value, args, info);
    return value;
  };
  const result = executeSync({
    schema: ctx.schema,
    document,
    rootValue: {},
    contextValue: ctx,
    variableValues: variables,
    operationName,
    fieldResolver,
  });
  return { result, actualCost: tally.cost, mutations: tally.mutations, rootFields: tally.rootFields };
}

/**
 * graphql-js has coerced `args` against the field's schema arguments, which is exactly the shape
 * each root resolver declares for its first parameter.
 */
function callRoot(
  resolver: RootResolver,
  { args, ctx, info }: { args: Record<string, unknown>; ctx: RequestContext; info: GraphQLResolveInfo },
) {
  return (
    resolver as (args: Record<string, unknown>, ctx: RequestContext, info: GraphQLResolveInfo) => unknown
  )(args, ctx, info);
}

/** The object-counting half of the cost rules, applied to what a field really returned. */
function actualCostOf(value: unknown, args: Record<string, unknown>, info: GraphQLResolveInfo): number {
  const type = getNamedType(info.returnType);
  if (isLeafType(type) || value === null || value === undefined) return 0;
  if (isConnection(type)) return 2;
  const parentIsConnection = isConnection(info.parentType);
  if (parentIsConnection && (info.fieldName === "edges" || info.fieldName === "pageInfo")) return 0;
  if (parentIsConnection && info.fieldName === "nodes" && Array.isArray(value)) return value.length;
  if (Array.isArray(value) && Array.isArray(args.ids)) return value.filter((item) => item !== null).length;
  return 1;
}

function checkInputArrays(value: unknown) {
  if (Array.isArray(value)) {
    if (value.length > MAX_INPUT_ARRAY) {
      throw new GraphQLError(
        `The input array size of ${value.length} is greater than the maximum allowed of ${MAX_INPUT_ARRAY}.`,
        { extensions: { code: "MAX_INPUT_SIZE_EXCEEDED" } },
      );
    }
    for (const item of value) checkInputArrays(item);
  } else if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) checkInputArrays(item);
  }
}
