import * as v from "valibot";
import { errorResponses, type OpenApiHeader, type OpenApiResponse } from "./openapi-answers.ts";

/**
 * The two routes outside the contract, as the edge registers them: the job event stream
 * (edge/src/jobs/routes.ts; EventSource cannot send headers, so it is not a contract call) and
 * Stripe's webhook (edge/src/billing/routes.ts; Stripe calls it, not our client).
 */
export const JOB_EVENTS_PATH = "/jobs/{id}/events";
export const STRIPE_WEBHOOK_PATH = "/webhooks/stripe";

/** What the webhook route reads of a Stripe event before it asks Stripe for the object itself. */
export function outsideSchemas(): Record<string, v.GenericSchema> {
  return {
    StripeEvent: v.looseObject({
      id: v.pipe(
        v.string(),
        v.description("The event's id; an id seen before is acknowledged, not applied again."),
      ),
      type: v.pipe(v.string(), v.description("The event type, e.g. customer.subscription.updated.")),
      created: v.pipe(v.number(), v.description("When Stripe created the event, in Unix seconds.")),
      data: v.optional(v.looseObject({ object: v.looseObject({}) })),
    }),
    WebhookReceipt: v.object({
      received: v.literal(true),
      duplicate: v.pipe(v.boolean(), v.description("True when this event id was processed before.")),
    }),
  };
}

interface OutsideOperation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  security: Record<string, string[]>[];
  parameters: {
    name: string;
    in: "path" | "header";
    required: true;
    description: string;
    schema: { type: "string" };
  }[];
  requestBody?: { required: true; content: { "application/json": { schema: { $ref: string } } } };
  responses: Record<string, OpenApiResponse>;
}

const NO_STORE: OpenApiHeader = { description: "Always `no-store`.", schema: { type: "string" } };

const EVENTS_EXAMPLE = [
  "event: progress",
  'data: {"_id":"0b7c…","kind":"sync","status":"running","progress":{"done":120,"total":400,"phase":"Writing quantities"},"message":null,"result":null,"createdAt":"2026-11-24T09:00:00.000Z","finishedAt":null}',
  "",
  "event: done",
  'data: {"_id":"0b7c…","kind":"sync","status":"succeeded","progress":{"done":400,"total":400,"phase":"Done"},"message":"Synchronized successfully","result":{"dryRun":false,"historyId":"5e1d…","total":400,"success":398,"unchanged":310,"failure":2,"skipped":0,"planned":0,"changes":[],"truncated":false},"createdAt":"2026-11-24T09:00:00.000Z","finishedAt":"2026-11-24T09:01:10.000Z"}',
  "",
  "",
].join("\n");

export function jobEventsOperation(security: { bearer: string; queryToken: string }): OutsideOperation {
  return {
    operationId: "jobEvents",
    tags: ["Jobs"],
    summary: "Follow a job's progress",
    description:
      "Server-Sent Events (`text/event-stream`). A `progress` event carries the job as JSON, the same " +
      "`Job` that `GET /jobs/{id}` answers, each time it changes; when the job has succeeded or " +
      "failed, one `done` event carries the finished job and the stream ends. `EventSource` cannot " +
      "send headers, so the token may come as `?token=` instead of the Authorization header.",
    security: [{ [security.bearer]: [] }, { [security.queryToken]: [] }],
    parameters: [
      { name: "id", in: "path", required: true, description: "The job's id.", schema: { type: "string" } },
    ],
    responses: {
      200: {
        description: "The stream: `progress` events, then one `done` event.",
        headers: { "Cache-Control": NO_STORE },
        content: {
          "text/event-stream": {
            schema: {
              type: "string",
              description:
                "Events `progress` and `done`, each with a `data` line holding a `Job` as JSON " +
                "(see `GET /jobs/{id}`).",
            },
            example: EVENTS_EXAMPLE,
          },
        },
      },
      ...errorResponses(["auth", "path", "database-busy"]),
    },
  };
}

export function stripeWebhookOperation(events: readonly string[]): OutsideOperation {
  return {
    operationId: "stripeWebhook",
    tags: ["Webhooks"],
    summary: "Receive a Stripe event",
    description:
      "Called by Stripe, not by clients. The `Stripe-Signature` header must verify against the raw " +
      "body with the webhook secret (`STRIPE_WEBHOOK_SECRET`), its time stamp within five minutes " +
      `of now either way. Handled events: ${events.map((event) => `\`${event}\``).join(", ")}; ` +
      "the subscription they name is read from Stripe and stored. Other events are acknowledged and " +
      "ignored. Each event id is applied once: a repeat answers `duplicate: true`. The answer is at " +
      "the top level, not in `data`; any non-2xx answer makes Stripe deliver the event again.",
    security: [],
    parameters: [
      {
        name: "Stripe-Signature",
        in: "header",
        required: true,
        description: "As Stripe signs a delivery: `t=<Unix time>,v1=<HMAC-SHA256 of t.body, hex>`.",
        schema: { type: "string" },
      },
    ],
    requestBody: {
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/StripeEvent" } } },
    },
    responses: {
      200: {
        description: "Applied, or acknowledged as a repeat or an event it does not handle.",
        content: { "application/json": { schema: { $ref: "#/components/schemas/WebhookReceipt" } } },
      },
      ...errorResponses(["signature", "event-shape", "body-limit", "stripe", "billing", "database-busy"]),
    },
  };
}
