import type { JsonSchema } from "@valibot/to-json-schema";
import { type Endpoint, type Failure, takesIdempotencyKey } from "./contract.ts";
import { COMPONENT_PREFIX } from "./json-schema.ts";
import { MESSAGES } from "./messages.ts";

export interface OpenApiHeader {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface OpenApiMediaType {
  schema: JsonSchema;
  example?: unknown;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, OpenApiHeader>;
  content?: Record<string, OpenApiMediaType>;
}

/** What the document derives from an endpoint's shape, beside the failures the contract names. */
type Derived =
  | "input"
  | "auth"
  | "subscription"
  | "session-only"
  | "path"
  | "body-limit"
  | "database-busy"
  | "stopping"
  | "idempotency-in-progress"
  | "idempotency-reused";
/** Failures of the Stripe webhook, which is outside the contract. */
type WebhookFailure = "signature" | "event-shape";
export type AnswerKey = Failure | Derived | WebhookFailure;

interface Answer {
  status: number;
  code: string;
  text: string;
  /** The exact message, when it never varies (shown as the example). */
  message?: string;
  body?: "validation" | "job-running";
  retryAfter?: boolean;
}

const upstream = (system: string): string =>
  `${system} failed: the message names ${system} and gives its own reason.`;

const ANSWERS: Record<AnswerKey, Answer> = {
  input: {
    status: 400,
    code: "VALIDATION_FAILED",
    text: "Bad input: `message` is the first problem, `errors` lists every field's `{ path, message }`.",
    body: "validation",
  },
  "event-shape": {
    status: 400,
    code: "VALIDATION_FAILED",
    text: "The signed body is not a Stripe event: `errors` names the fields it lacks.",
    body: "validation",
  },
  signature: {
    status: 400,
    code: "INVALID_SIGNATURE",
    text: "The `Stripe-Signature` header does not verify: wrong secret, changed body, or a time stamp over five minutes off.",
  },
  auth: {
    status: 401,
    code: "UNAUTHORIZED",
    text: "No Bearer token, or an invalid or expired one, or its session has ended.",
  },
  credentials: {
    status: 401,
    code: "UNAUTHORIZED",
    text: "The email and password, or the token to renew, are not accepted.",
  },
  payment: {
    status: 402,
    code: "PAYMENT_FAILED",
    text: "Stripe declined the card; the message is Stripe's reason.",
  },
  subscription: {
    status: 403,
    code: "SUBSCRIPTION_REQUIRED",
    text: MESSAGES.access.subscriptionRequired,
    message: MESSAGES.access.subscriptionRequired,
  },
  plan: {
    status: 403,
    code: "PLAN_LIMIT",
    text: "The subscription's plan does not include this: the message names the plan, what it includes and the plan that does.",
  },
  "session-only": {
    status: 403,
    code: "PERSONAL_TOKEN_FORBIDDEN",
    text: "Called with a personal API token: this needs a signed-in session. The message names the action.",
  },
  path: {
    status: 404,
    code: "NOT_FOUND",
    text: "No such row, or it belongs to another user: the two read alike.",
  },
  missing: { status: 404, code: "NOT_FOUND", text: "Something it needs is not there; the message names it." },
  conflict: {
    status: 409,
    code: "CONFLICT",
    text: "It conflicts with the current state; the message says what is in the way.",
  },
  "job-running": {
    status: 409,
    code: "CONFLICT",
    text: "A job of this kind is already running for the user: `jobId` names it, so a client can follow that one.",
    body: "job-running",
  },
  "idempotency-in-progress": {
    status: 409,
    code: "IDEMPOTENCY_IN_PROGRESS",
    text: `${MESSAGES.idempotency.inProgress} The first request with this \`Idempotency-Key\` has not answered yet; \`Retry-After\` is 1 second.`,
    message: MESSAGES.idempotency.inProgress,
    retryAfter: true,
  },
  "idempotency-reused": {
    status: 422,
    code: "IDEMPOTENCY_KEY_REUSED",
    text: "The `Idempotency-Key` was first sent with another method, path or body; nothing ran.",
    message: MESSAGES.idempotency.reused,
  },
  "body-limit": {
    status: 413,
    code: "PAYLOAD_TOO_LARGE",
    text: "The request body is larger than 1 MB.",
    message: "The request body is larger than 1 MB",
  },
  "rate-limited": {
    status: 429,
    code: "RATE_LIMITED",
    text: "Too many attempts: `Retry-After` says how many seconds to wait.",
    retryAfter: true,
  },
  shopify: { status: 502, code: "UPSTREAM_FAILED", text: upstream("Shopify") },
  acumatica: { status: 502, code: "UPSTREAM_FAILED", text: upstream("Acumatica") },
  stripe: { status: 502, code: "UPSTREAM_FAILED", text: upstream("Stripe") },
  billing: {
    status: 503,
    code: "BILLING_NOT_CONFIGURED",
    text: "Billing is not configured on this server; the message names the missing setting.",
  },
  "database-busy": {
    status: 503,
    code: "DATABASE_BUSY",
    text: `${MESSAGES.generic.databaseBusy} Another connection held the database too long; nothing was written, and \`Retry-After\` is 1 second.`,
    message: MESSAGES.generic.databaseBusy,
    retryAfter: true,
  },
  stopping: {
    status: 503,
    code: "STOPPING",
    text: `${MESSAGES.generic.stopping} The server is stopping (a deploy or restart) and starts no new job; \`Retry-After\` is 5 seconds.`,
    message: MESSAGES.generic.stopping,
    retryAfter: true,
  },
  "database-down": {
    status: 503,
    code: "DB_UNAVAILABLE",
    text: "The database is not answering.",
    message: "The database is not answering",
  },
};

/**
 * Every failure an endpoint can answer: what its shape implies (inputs 400, a token 401, the
 * subscription gate and a session-only action 403, a path row 404, a body 413, the database 503) plus the contract's list.
 */
export function answerKeys(endpoint: Endpoint): AnswerKey[] {
  const failures = endpoint.failures ?? [];
  const keys: AnswerKey[] = [];
  if (endpoint.params || endpoint.query || endpoint.body) keys.push("input");
  if (endpoint.access !== "public") keys.push("auth");
  if (endpoint.access === "subscriber") keys.push("subscription");
  if (endpoint.sessionOnly) keys.push("session-only");
  if (endpoint.params) keys.push("path");
  if (endpoint.body) keys.push("body-limit");
  // The health check reads the database itself and answers its own 503.
  if (endpoint.database !== false && !failures.includes("database-down")) keys.push("database-busy");
  // What starts a job is refused while the server stops (the jobs' graceful stop).
  if (failures.includes("job-running")) keys.push("stopping");
  if (takesIdempotencyKey(endpoint)) keys.push("idempotency-in-progress", "idempotency-reused");
  return [...keys, ...failures];
}

/** One response per status; several reasons under one status are listed by their `code`. */
export function errorResponses(keys: readonly AnswerKey[]): Record<string, OpenApiResponse> {
  const byStatus = new Map<number, Answer[]>();
  for (const key of keys) {
    const answer = ANSWERS[key];
    byStatus.set(answer.status, [...(byStatus.get(answer.status) ?? []), answer]);
  }
  const responses: Record<string, OpenApiResponse> = {};
  for (const [status, answers] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = response(answers);
  }
  return responses;
}

function response(answers: Answer[]): OpenApiResponse {
  const [only] = answers;
  const description =
    only && answers.length === 1
      ? only.text
      : answers.map((answer) => `- ${answer.text} (\`${answer.code}\`)`).join("\n");
  const waits = answers.filter((answer) => answer.retryAfter);
  // The example is the one answer whose message never varies (a plan's 403 beside the
  // subscription's: the subscription's, word for word).
  const fixed = answers.filter((answer) => answer.message);
  const example =
    fixed.length === 1 && fixed[0]?.message ? { message: fixed[0].message, code: fixed[0].code } : null;
  return {
    description,
    ...(waits.length > 0
      ? {
          headers: {
            "Retry-After": {
              description:
                waits.length === answers.length
                  ? "Seconds to wait before trying again."
                  : `Seconds to wait before trying again (with ${waits.map((answer) => `\`${answer.code}\``).join(", ")}).`,
              required: waits.length === answers.length,
              schema: { type: "integer", minimum: 1 },
            },
          },
        }
      : {}),
    content: { "application/json": { schema: bodySchema(answers), ...(example ? { example } : {}) } },
  };
}

function bodySchema(answers: Answer[]): JsonSchema {
  const ref = (name: string): JsonSchema => ({ $ref: `${COMPONENT_PREFIX}${name}` });
  if (answers.every((answer) => answer.body === "validation")) return ref("ValidationErrorBody");
  if (answers.every((answer) => answer.body === "job-running")) return ref("JobRunningErrorBody");
  if (answers.some((answer) => answer.body === "job-running")) {
    return { anyOf: [ref("JobRunningErrorBody"), ref("ErrorBody")] };
  }
  return ref("ErrorBody");
}
