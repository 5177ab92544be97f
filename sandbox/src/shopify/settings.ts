import { type Faults, NO_FAULTS } from "../faults.ts";
import { ControlInputError } from "../simulator.ts";
import { isThrottleProfileName, type ThrottleProfileName } from "./throttle.ts";

/** What `PUT /__control/faults {"shopify": {...}}` can change. */
export interface ShopifySettings extends Faults {
  /** How long a call picked by `timeoutRate` hangs before its 504. */
  timeoutMs: number;
  throttleProfile: ThrottleProfileName;
  /** THROTTLED answers: 200 as Shopify sends them, or 429 for clients that only look at the status. */
  throttleStatusCode: 200 | 429;
  /** The day version fall-forward is computed against; null = the sandbox clock's now. */
  releaseDate: Date | null;
  /** Sandbox-clock time a bulk operation takes to complete. */
  bulkOperationDelayMs: number;
  /** false: answers lack `X-Shopify-API-Version` (a proxy that strips it), so clients must not rely on it. */
  versionHeader: boolean;
  /** The store's currency, ISO 4217 (`shop.currencyCode`). */
  currencyCode: string;
  /**
   * Every query's requested and actual cost times this: a real store's queries can cost more than
   * the documented rules give (more fields and connections behind a node), which clients must learn.
   */
  costMultiplier: number;
}

export const DEFAULT_SETTINGS: ShopifySettings = {
  ...NO_FAULTS,
  timeoutMs: 30_000,
  throttleProfile: "standard",
  throttleStatusCode: 200,
  releaseDate: null,
  bulkOperationDelayMs: 500,
  versionHeader: true,
  currencyCode: "USD",
  costMultiplier: 1,
};

type Parser = (value: unknown, settings: ShopifySettings) => Partial<ShopifySettings>;

const PARSERS: Record<string, Parser> = {
  errorRate: (value) => ({ errorRate: share(value, "errorRate") }),
  timeoutRate: (value) => ({ timeoutRate: share(value, "timeoutRate") }),
  latencyMs: (value) => ({ latencyMs: whole(value, { name: "latencyMs", min: 0, max: 60_000 }) }),
  timeoutMs: (value) => ({ timeoutMs: whole(value, { name: "timeoutMs", min: 0, max: 600_000 }) }),
  bulkOperationDelayMs: (value) => ({
    bulkOperationDelayMs: whole(value, { name: "bulkOperationDelayMs", min: 0, max: 3_600_000 }),
  }),
  costMultiplier: (value) => {
    if (typeof value !== "number" || !(value >= 1 && value <= 20)) {
      throw new ControlInputError("costMultiplier must be a number from 1 to 20.");
    }
    return { costMultiplier: value };
  },
  throttleProfile: (value) => {
    if (!isThrottleProfileName(value)) {
      throw new ControlInputError("throttleProfile must be one of standard, plus or legacy.");
    }
    return { throttleProfile: value };
  },
  throttleStatusCode: (value) => {
    if (value !== 200 && value !== 429) throw new ControlInputError("throttleStatusCode must be 200 or 429.");
    return { throttleStatusCode: value };
  },
  currencyCode: (value) => {
    if (typeof value !== "string" || !/^[A-Z]{3}$/.test(value)) {
      throw new ControlInputError(
        "currencyCode must be an ISO 4217 code of three capital letters, e.g. EUR.",
      );
    }
    return { currencyCode: value };
  },
  versionHeader: (value) => {
    if (typeof value !== "boolean") throw new ControlInputError("versionHeader must be true or false.");
    return { versionHeader: value };
  },
  releaseDate: (value) => {
    if (value === null) return { releaseDate: null };
    const date = typeof value === "string" ? new Date(value) : null;
    if (!date || Number.isNaN(date.getTime())) {
      throw new ControlInputError("releaseDate must be an ISO date (or null for the sandbox clock's today).");
    }
    return { releaseDate: date };
  },
};

/** Validates every key before applying any, so a bad value changes nothing. */
export function applySettings(current: ShopifySettings, input: Record<string, unknown>): ShopifySettings {
  let next = { ...current };
  for (const [key, value] of Object.entries(input)) {
    const parser = PARSERS[key];
    if (!parser) {
      throw new ControlInputError(
        `Unknown shopify setting "${key}": use ${Object.keys(PARSERS).join(", ")}.`,
      );
    }
    next = { ...next, ...parser(value, next) };
  }
  return next;
}

function share(value: unknown, name: string): number {
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
    throw new ControlInputError(`${name} must be a number from 0 to 1.`);
  }
  return value;
}

function whole(value: unknown, { name, min, max }: { name: string; min: number; max: number }): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new ControlInputError(`${name} must be a whole number from ${min} to ${max}.`);
  }
  return value;
}
