import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Body of a Stripe API error, as the official SDKs parse it (`{ error: { type, code, message, param } }`). */
export interface StripeErrorBody {
  type: "invalid_request_error" | "api_error" | "card_error" | "idempotency_error";
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
  doc_url?: string;
}

/** Thrown anywhere in the Stripe simulator; the routes' error handler answers it in Stripe's shape. */
export class StripeApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly body: StripeErrorBody;

  constructor(status: ContentfulStatusCode, body: StripeErrorBody) {
    super(body.message);
    this.status = status;
    this.body = body.code
      ? { doc_url: `https://stripe.com/docs/error-codes/${body.code.replaceAll("_", "-")}`, ...body }
      : body;
  }
}

export function invalidRequest(
  message: string,
  options: { param?: string; code?: string; status?: ContentfulStatusCode } = {},
) {
  const { status = 400, ...rest } = options;
  return new StripeApiError(status, { type: "invalid_request_error", message, ...rest });
}

/**
 * "No such price: 'x'". Stripe answers 404 when the id is in the URL path and 400 when it was a
 * parameter of the request (`line_items[0][price]`), both with code resource_missing.
 */
export function noSuch(
  kind: string,
  id: string,
  { param, status = 400 }: { param: string; status?: ContentfulStatusCode },
) {
  return invalidRequest(`No such ${kind}: '${id}'`, { param, code: "resource_missing", status });
}

export function parameterMissing(param: string) {
  return invalidRequest(`Missing required param: ${param}.`, { param, code: "parameter_missing" });
}

export function parameterUnknown(param: string) {
  return invalidRequest(`Received unknown parameter: ${param}`, { param, code: "parameter_unknown" });
}

export function parameterEmpty(param: string) {
  return invalidRequest(
    `You passed an empty string for '${param}'. We assume empty values are an attempt to unset a parameter; however '${param}' cannot be unset. You should remove '${param}' from your request or supply a non-empty value.`,
    { param, code: "parameter_invalid_empty" },
  );
}

export function cardDeclined(param?: string) {
  return new StripeApiError(402, {
    type: "card_error",
    code: "card_declined",
    decline_code: "generic_decline",
    message: "Your card was declined.",
    ...(param ? { param } : {}),
  });
}
