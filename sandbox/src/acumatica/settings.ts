import type { Faults } from "../faults.ts";
import { ControlInputError } from "../simulator.ts";

/** Everything `PUT /__control/faults {"acumatica": {...}}` can change. */
export interface AcumaticaSettings extends Faults {
  /** How long a timed-out call hangs before it is answered (the client usually gives up first). */
  timeoutMs: number;
  /** Licence "Maximum Number of Web Services API Users": open sessions at once. */
  seats: number;
  /** Licence "Maximum Number of Concurrent Web Services API Requests"; 0 = no limit. */
  maxConcurrent: number;
  /** Licence "Maximum Number of Web Services API Requests per Minute"; 0 = no limit. */
  requestsPerMinute: number;
  /** A session nobody logs out closes itself after this much idle time (10 min per the docs). */
  idleTimeoutSeconds: number;
  /** The company's base currency (the `Company` entity's BaseCurrencyID): what item prices are in. */
  baseCurrency: string;
  /** false: the endpoint lacks the Company entity (a custom endpoint), so every call to it is a 404. */
  companyEntity: boolean;
}

// A small licence: a trial has 2 API users; 3 leaves room for a test connection beside a sync.
// Concurrency and rate are generous so only code that floods the API meets them.
export const DEFAULT_SETTINGS: AcumaticaSettings = {
  errorRate: 0,
  timeoutRate: 0,
  latencyMs: 0,
  timeoutMs: 30_000,
  seats: 3,
  maxConcurrent: 8,
  requestsPerMinute: 600,
  idleTimeoutSeconds: 600,
  baseCurrency: "USD",
  companyEntity: true,
};

type Rule =
  | { kind: "rate" }
  | { kind: "integer"; min: number; max: number }
  | { kind: "currency" }
  | { kind: "boolean" };

const RULES: Record<keyof AcumaticaSettings, Rule> = {
  errorRate: { kind: "rate" },
  timeoutRate: { kind: "rate" },
  latencyMs: { kind: "integer", min: 0, max: 60_000 },
  timeoutMs: { kind: "integer", min: 1, max: 600_000 },
  seats: { kind: "integer", min: 1, max: 1_000 },
  maxConcurrent: { kind: "integer", min: 0, max: 1_000 },
  requestsPerMinute: { kind: "integer", min: 0, max: 1_000_000 },
  idleTimeoutSeconds: { kind: "integer", min: 1, max: 86_400 },
  baseCurrency: { kind: "currency" },
  companyEntity: { kind: "boolean" },
};

function isSettingName(name: string): name is keyof AcumaticaSettings {
  return Object.hasOwn(RULES, name);
}

/** Validates every key first, so a bad value changes nothing. */
export function mergeSettings(current: AcumaticaSettings, input: Record<string, unknown>): AcumaticaSettings {
  const next = { ...current };
  for (const [name, value] of Object.entries(input)) {
    if (!isSettingName(name)) {
      throw new ControlInputError(
        `Unknown acumatica setting "${name}": use ${Object.keys(RULES).join(", ")}.`,
      );
    }
    const rule = RULES[name];
    if (rule.kind === "currency") {
      if (typeof value !== "string" || !/^[A-Z]{3}$/.test(value)) {
        throw new ControlInputError(
          `acumatica.${name} must be a currency ID of three capital letters, e.g. EUR.`,
        );
      }
      next.baseCurrency = value;
      continue;
    }
    if (rule.kind === "boolean") {
      if (typeof value !== "boolean") throw new ControlInputError(`acumatica.${name} must be true or false.`);
      next.companyEntity = value;
      continue;
    }
    if (rule.kind === "rate") {
      if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
        throw new ControlInputError(`acumatica.${name} must be a number from 0 to 1.`);
      }
    } else if (
      typeof value !== "number" ||
      !Number.isInteger(value) ||
      value < rule.min ||
      value > rule.max
    ) {
      throw new ControlInputError(
        `acumatica.${name} must be a whole number from ${rule.min} to ${rule.max}.`,
      );
    }
    (next as Record<string, unknown>)[name] = value;
  }
  return next;
}
