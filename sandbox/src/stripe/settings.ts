import { ControlInputError } from "../simulator.ts";

/** What `PUT /__control/faults {"stripe": {...}}` can change. */
export interface StripeSettings {
  /** Share (0..1) of /v1 calls answered with a transient 500 api_error. */
  errorRate: number;
  /** Share (0..1) of /v1 calls that hang for `timeoutMs` before a 500 api_error. */
  timeoutRate: number;
  timeoutMs: number;
  /** Added to every /v1 call. */
  latencyMs: number;
  /** Where webhooks go; null switches delivery off (events are still listed by GET /v1/events). */
  webhookUrl: string | null;
  webhookSecret: string;
}

type Patch = Partial<StripeSettings> & { failWebhooks?: number };

const KEYS = [
  "errorRate",
  "timeoutRate",
  "timeoutMs",
  "latencyMs",
  "webhookUrl",
  "webhookSecret",
  "failWebhooks",
];

/** Validates every field first, so a bad value changes nothing; the message names the field. */
export function parseSettings(input: Record<string, unknown>): Patch {
  const patch: Patch = {};
  for (const [key, value] of Object.entries(input)) {
    switch (key) {
      case "errorRate":
      case "timeoutRate":
        if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
          throw new ControlInputError(`stripe.${key} must be a number from 0 to 1.`);
        }
        patch[key] = value;
        break;
      case "latencyMs":
      case "timeoutMs":
      case "failWebhooks":
        if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 600_000) {
          throw new ControlInputError(`stripe.${key} must be a whole number from 0 to 600000.`);
        }
        patch[key] = value;
        break;
      case "webhookUrl":
        if (
          value !== null &&
          (typeof value !== "string" || !/^https?:\/\//.test(value) || !URL.canParse(value))
        ) {
          throw new ControlInputError(
            "stripe.webhookUrl must be an http(s) URL, or null to stop deliveries.",
          );
        }
        patch.webhookUrl = value;
        break;
      case "webhookSecret":
        if (typeof value !== "string" || value.length === 0) {
          throw new ControlInputError("stripe.webhookSecret must be a non-empty string.");
        }
        patch.webhookSecret = value;
        break;
      default:
        throw new ControlInputError(`Unknown stripe setting "${key}": use ${KEYS.join(", ")}.`);
    }
  }
  return patch;
}
