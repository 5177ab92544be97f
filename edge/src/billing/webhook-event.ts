import { ValidationError } from "../errors.ts";
import { record } from "../lib/json.ts";
import { WebhookSignatureError } from "./errors.ts";
import type { WebhookEventView } from "./stripe-objects.ts";

/** Stripe accepts signatures up to this far from its own clock, in seconds, either way. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * The SDK refuses a signature older than the tolerance but accepts one from the future, which a
 * captured delivery with a forged clock could abuse; Stripe's own rule is five minutes either way.
 * Stripe signs with its wall clock, so ours is the one to compare with (not the app's injected clock).
 */
export function refuseFutureSignature(signature: string): void {
  const stamp = signature
    .split(",")
    .map((part) => part.trim())
    .find((part) => part.startsWith("t="));
  const timestamp = Number(stamp?.slice(2));
  if (Number.isFinite(timestamp) && timestamp - Date.now() / 1000 > SIGNATURE_TOLERANCE_SECONDS) {
    throw new WebhookSignatureError(
      "Webhook signature verification failed: Timestamp outside the tolerance zone (it lies in the future)",
    );
  }
}

/** A correctly signed body is still input: an event must be an object with an id, a type and a time. */
export function toWebhookEventView(event: unknown): WebhookEventView {
  const body = record(event);
  const field = (name: string): unknown => body?.[name];
  const issues = [
    typeof field("id") === "string" && field("id") !== ""
      ? null
      : { path: "id", message: "must be the event's id" },
    typeof field("type") === "string" ? null : { path: "type", message: "must be the event's type" },
    typeof field("created") === "number" ? null : { path: "created", message: "must be a Unix time" },
  ].filter((issue) => issue !== null);
  if (!body || issues.length > 0) {
    throw new ValidationError(
      "The webhook body is not a Stripe event",
      body ? issues : [{ path: "", message: "must be a JSON object" }],
    );
  }
  return {
    id: String(field("id")),
    type: String(field("type")),
    created: Number(field("created")),
    object: record(record(field("data"))?.object) ?? {},
  };
}
