import {
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  getOperationAST,
  getVariableValues,
  Kind,
  parse,
  print,
  validate,
} from "graphql";
import { requestedCost } from "./cost.ts";
import { deprecationReason } from "./deprecations.ts";
import { executeOperation } from "./execute.ts";
import { type ShopifyGraphqlError, shopifyError, withVariableType } from "./graphql-errors.ts";
import { schemaFor } from "./schema.ts";
import type { RequestContext, ShopState } from "./shop-state.ts";
import { credit, MAX_QUERY_COST, secondsUntil, throttleStatus, tryDebit } from "./throttle.ts";
import type { ApiVersion } from "./versions.ts";

export interface GraphqlRequest {
  query: unknown;
  variables: unknown;
  operationName: unknown;
}

export interface GraphqlAnswer {
  status: 200 | 400 | 429;
  body: unknown;
  headers: Record<string, string>;
}

const RATE_LIMITS_DOC = "https://shopify.dev/api/usage/rate-limits";

/**
 * One GraphQL call, the way Shopify answers it: parse and validate against the served version
 * (HTTP 200 + errors[]), refuse a requested cost over 1000 (MAX_COST_EXCEEDED), debit the bucket or
 * answer THROTTLED, run, refund down to the actual cost, and report `extensions.cost`.
 */
export function answerGraphql(
  ctx: RequestContext,
  request: GraphqlRequest,
  /** `costMultiplier`: a store whose queries cost more than the documented rules (a real store does). */
  options: { throttleStatusCode: 200 | 429; costMultiplier: number },
): GraphqlAnswer {
  const shop = ctx.shop;
  shop.counters.calls += 1;
  shop.counters.servedVersions[ctx.version.name] = (shop.counters.servedVersions[ctx.version.name] ?? 0) + 1;

  if (typeof request.query !== "string" || request.query.trim() === "") {
    return { status: 400, body: { errors: { query: "Required parameter missing or invalid" } }, headers: {} };
  }
  const variables = isRecord(request.variables) ? request.variables : {};
  const operationName = typeof request.operationName === "string" ? request.operationName : undefined;

  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (error) {
    return errorsOnly(error instanceof GraphQLError ? [shopifyError(error)] : [{ message: String(error) }]);
  }
  const validationErrors = validate(ctx.schema, document);
  if (validationErrors.length > 0) return errorsOnly(validationErrors.map(shopifyError));

  const operation = getOperationAST(document, operationName);
  if (!operation) {
    return errorsOnly([
      { message: operationName ? `No operation named "${operationName}"` : "An operation name is required" },
    ]);
  }
  const coerced = getVariableValues(ctx.schema, operation.variableDefinitions ?? [], variables);
  if (coerced.errors) {
    const typeOf = (name: string) => {
      const definition = operation.variableDefinitions?.find(
        (candidate) => candidate.variable.name.value === name,
      );
      return definition ? print(definition.type) : "unknown";
    };
    return errorsOnly(coerced.errors.map((error) => withVariableType(shopifyError(error), typeOf)));
  }

  const fragments = document.definitions.filter(
    (definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION,
  );
  const requested = Math.ceil(
    requestedCost(ctx.schema, { operation, fragments, variables: coerced.coerced }) * options.costMultiplier,
  );
  if (requested > MAX_QUERY_COST) {
    shop.counters.maxCostExceeded += 1;
    return errorsOnly([maxCostExceeded(requested)]);
  }
  if (!tryDebit(shop.bucket, requested, ctx.now)) {
    shop.counters.throttled += 1;
    const status = options.throttleStatusCode;
    const body = {
      errors: [{ message: "Throttled", extensions: { code: "THROTTLED", documentation: RATE_LIMITS_DOC } }],
      extensions: {
        cost: {
          requestedQueryCost: requested,
          actualQueryCost: null,
          throttleStatus: throttleStatus(shop.bucket),
        },
      },
    };
    const headers: Record<string, string> =
      status === 429 ? { "Retry-After": `${secondsUntil(shop.bucket, requested)}.0` } : {};
    return { status, body, headers };
  }

  const execution = executeOperation(ctx, { document, variables, operationName });
  const deprecated = deprecationReason(ctx.schema, {
    document,
    operation,
    variables,
    versionName: ctx.version.name,
  });
  const actual = Math.min(Math.ceil(execution.actualCost * options.costMultiplier), requested);
  credit(shop.bucket, requested - actual);
  shop.counters.pointsSpent += actual;
  shop.counters.mutations += execution.mutations;
  for (const [field, count] of Object.entries(execution.rootFields))
    shop.counters.rootFields[field] = (shop.counters.rootFields[field] ?? 0) + count;
  const errors = execution.result.errors?.map(shopifyError);
  return {
    status: 200,
    body: {
      ...(errors && errors.length > 0 ? { errors } : {}),
      data: execution.result.data ?? null,
      extensions: {
        cost: {
          requestedQueryCost: requested,
          actualQueryCost: actual,
          throttleStatus: throttleStatus(shop.bucket),
        },
      },
    },
    headers: deprecated ? { "X-Shopify-API-Deprecated-Reason": deprecated } : {},
  };
}

function errorsOnly(errors: ShopifyGraphqlError[]): GraphqlAnswer {
  return { status: 200, body: { errors }, headers: {} };
}

function maxCostExceeded(cost: number): ShopifyGraphqlError {
  return {
    message: `Query cost is ${cost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).

See https://shopify.dev/concepts/about-apis/rate-limits for more information on how the
cost of a query is calculated.

To query larger amounts of data with fewer limits, bulk operations should be used instead.
See https://shopify.dev/api/usage/bulk-operations/queries for usage details.
`,
    extensions: { code: "MAX_COST_EXCEEDED", cost, maxCost: MAX_QUERY_COST, documentation: RATE_LIMITS_DOC },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function contextFor(
  shop: ShopState,
  version: ApiVersion,
  options: Omit<RequestContext, "shop" | "version" | "schema" | "bulk">,
): RequestContext {
  return { ...options, shop, version, schema: schemaFor(version.schemaKey), bulk: false };
}
