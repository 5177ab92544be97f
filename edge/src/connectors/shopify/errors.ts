import { UpstreamError } from "../../errors.ts";
import { record } from "../../lib/json.ts";
import type { OutboundRefusedError } from "../../security/outbound-guard.ts";

export type ShopifyFailure =
  | "unauthorized"
  | "access-denied"
  | "not-found"
  | "unavailable"
  | "unreachable"
  | "refused"
  | "graphql";

/** A Shopify failure with a reason people can act on; `kind` lets callers branch without parsing text. */
export class ShopifyError extends UpstreamError {
  constructor(
    message: string,
    readonly kind: ShopifyFailure,
  ) {
    super("Shopify", message);
  }
}

export interface GraphqlError {
  message: string;
  code: string | null;
  path: (string | number)[] | null;
  /** MAX_COST_EXCEEDED only: the query's requested cost and the cap it broke. */
  cost?: number;
  maxCost?: number;
}

/** null = fine, "retry" = transient, otherwise the error to throw. */
export function httpFailure(
  response: Response,
  json: unknown,
  options: { storeName: string; apiVersion: string },
): ShopifyError | "retry" | null {
  const status = response.status;
  if (status >= 200 && status < 300) {
    return json === undefined
      ? new ShopifyError(`Shopify answered HTTP ${status} with a body that is not JSON`, "graphql")
      : null;
  }
  if (status === 429 || status >= 500) return "retry";
  const said = errorText(json);
  const detail = said ? `: ${said}` : "";
  if (status === 401)
    return new ShopifyError(`invalid access token (Shopify answered 401${detail})`, "unauthorized");
  if (status === 402)
    return new ShopifyError(
      `the store is frozen until its bill is paid (Shopify answered 402${detail})`,
      "unavailable",
    );
  if (status === 403)
    return new ShopifyError(`access denied (Shopify answered 403${detail})`, "access-denied");
  if (status === 404) {
    return new ShopifyError(
      `unknown store "${options.storeName}" or API version ${options.apiVersion} (Shopify answered 404${detail})`,
      "not-found",
    );
  }
  if (status === 423)
    return new ShopifyError(
      `the store is locked and unavailable (Shopify answered 423${detail})`,
      "unavailable",
    );
  if (status >= 300 && status < 400) {
    return new ShopifyError(
      `Shopify redirected the request to ${response.headers.get("Location") ?? "another address"}; check the store name`,
      "not-found",
    );
  }
  return new ShopifyError(`Shopify answered HTTP ${status}${detail}`, "graphql");
}

export function graphqlFailure(errors: GraphqlError[]): ShopifyError {
  const text = errors.map((error) => error.message).join("; ");
  if (errors.some((error) => error.code === "ACCESS_DENIED"))
    return new ShopifyError(`missing permission: ${text}`, "access-denied");
  return new ShopifyError(`Shopify rejected the request: ${text}`, "graphql");
}

export function refused(error: OutboundRefusedError): ShopifyError {
  return new ShopifyError(
    error.kind === "unresolvable"
      ? `unreachable host: ${error.message}`
      : `the address is not allowed: ${error.message}`,
    error.kind === "unresolvable" ? "unreachable" : "refused",
  );
}

export function isThrottled(json: unknown): boolean {
  const errors = record(json)?.errors;
  return (
    Array.isArray(errors) && errors.some((error) => record(record(error)?.extensions)?.code === "THROTTLED")
  );
}

/** Shopify's `errors` is a string ("Not Found"), an object, or the GraphQL array. */
function errorText(json: unknown): string {
  const errors = record(json)?.errors;
  if (typeof errors === "string") return errors;
  if (Array.isArray(errors))
    return readErrors(errors)
      .map((error) => error.message)
      .join("; ");
  if (errors && typeof errors === "object") return JSON.stringify(errors);
  return "";
}

export function readErrors(value: unknown): GraphqlError[] {
  if (!Array.isArray(value)) return [];
  return value.map((entry) => {
    const error = record(entry);
    const extensions = record(error?.extensions);
    const code = extensions?.code;
    const read: GraphqlError = {
      message: typeof error?.message === "string" ? error.message : JSON.stringify(entry),
      code: typeof code === "string" ? code : null,
      path: Array.isArray(error?.path) ? (error.path as (string | number)[]) : null,
    };
    if (typeof extensions?.cost === "number") read.cost = extensions.cost;
    if (typeof extensions?.maxCost === "number") read.maxCost = extensions.maxCost;
    return read;
  });
}
