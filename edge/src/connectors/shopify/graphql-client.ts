import { readJsonBody } from "@stockbridge/shared";
import { record } from "../../lib/json.ts";
import { OutboundRefusedError } from "../../security/outbound-guard.ts";
import {
  backoffMs,
  type ConnectorClock,
  deadline,
  type FetchLike,
  isTimeout,
  networkReason,
  realClock,
  retryAfterMs,
} from "../transport.ts";
import {
  type GraphqlError,
  graphqlFailure,
  httpFailure,
  isThrottled,
  readErrors,
  refused,
  ShopifyError,
} from "./errors.ts";
import { createThrottleModel, readThrottleStatus, type ThrottleStatus } from "./throttle-model.ts";

export { type GraphqlError, ShopifyError, type ShopifyFailure } from "./errors.ts";

export interface GraphqlResponse<T> {
  data: T | null;
  errors: GraphqlError[];
  cost: { requested: number | null; actual: number | null };
}

export interface ShopifyClientOptions {
  /** A normalised store name (`acme`, not `acme.myshopify.com`). */
  storeName: string;
  accessToken: string;
  /** The version asked for; Shopify may serve a newer one (see `servedVersion`). */
  apiVersion: string;
  /** The app's outbound fetch (already behind the address guard). */
  fetch: FetchLike;
  /** `https://{store}.myshopify.com`, or the sandbox's `/shopify/{store}` origin. */
  originFor?: (storeName: string) => string;
  clock?: ConnectorClock;
  /** Attempts for transient failures (5xx, 429 without THROTTLED, network errors, timeouts). */
  maxAttempts?: number;
  timeoutMs?: number;
  /** THROTTLED answers absorbed per call before giving up (each waits for the bucket to refill). */
  maxThrottleWaits?: number;
  /** Told of each wait for the cost bucket and of the points each call used (the app's metrics). */
  observe?: ShopifyObserver;
}

export interface ShopifyObserver {
  throttleWait(milliseconds: number): void;
  costPoints(points: number): void;
}

export interface RequestOptions {
  /** Points the call will request, if known before the first answer (later calls learn it). */
  expectedCost?: number;
  /** false for a mutation that must not run twice; default true. */
  retry?: boolean;
  signal?: AbortSignal;
}

/** Counters for benchmarks and job results. */
export interface ShopifyClientStats {
  calls: number;
  points: number;
  requestedPoints: number;
  throttled: number;
  retries: number;
  /** Time spent waiting for the bucket or backing off, in ms. */
  waitedMs: number;
}

export type ShopifyClient = ReturnType<typeof createShopifyClient>;

export function defaultShopifyOrigin(storeName: string): string {
  return `https://${storeName}.myshopify.com`;
}

/**
 * The Admin GraphQL transport every Shopify feature uses. It paces itself by the cost Shopify
 * reports (waits before a call that would not fit the bucket), absorbs THROTTLED answers (200 or
 * 429) by waiting the refill time, retries transient failures with back-off, records the version
 * Shopify served, and turns everything else into a ShopifyError with a clear reason.
 */
export function createShopifyClient(options: ShopifyClientOptions) {
  const clock = options.clock ?? realClock;
  const maxAttempts = options.maxAttempts ?? 5;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxThrottleWaits = options.maxThrottleWaits ?? 50;
  const origin = (options.originFor ?? defaultShopifyOrigin)(options.storeName);
  const endpoint = `${origin}/admin/api/${options.apiVersion}/graphql.json`;
  const throttle = createThrottleModel(clock.now);
  const learnedCost = new Map<string, number>();
  const stats: ShopifyClientStats = {
    calls: 0,
    points: 0,
    requestedPoints: 0,
    throttled: 0,
    retries: 0,
    waitedMs: 0,
  };
  let servedVersion: string | null = null;
  /** A moving average of answered calls' round trips, in ms (null before the first). */
  let roundTrip: number | null = null;
  let deprecationNotice: string | null = null;
  /** The latest `Date` an answer carried (Shopify's clock, whole seconds), in ms. */
  let serverTime: number | null = null;

  async function wait(milliseconds: number) {
    if (milliseconds <= 0) return;
    stats.waitedMs += milliseconds;
    await clock.sleep(milliseconds);
  }

  /** A wait for the bucket (pacing before a call, or refill after THROTTLED), not a back-off. */
  async function throttleWait(milliseconds: number) {
    if (milliseconds > 0) options.observe?.throttleWait(milliseconds);
    await wait(milliseconds);
  }

  /** Sends one operation; GraphQL errors come back in `errors` (THROTTLED never does). */
  async function execute<T>(
    query: string,
    variables: Record<string, unknown> = {},
    request: RequestOptions = {},
  ): Promise<GraphqlResponse<T>> {
    const expected = request.expectedCost ?? learnedCost.get(query) ?? 0;
    const body = JSON.stringify({ query, variables });
    let attempt = 0;
    let throttleWaits = 0;
    for (;;) {
      // Checked again after each wait: calls that waited together would otherwise all send at once
      // when the refill they waited for covers only one of them (each answered THROTTLED).
      for (let pause = throttle.waitFor(expected); pause > 0; pause = throttle.waitFor(expected))
        await throttleWait(pause);
      const release = throttle.reserve(expected);
      const sentAt = clock.now();
      let response: Response;
      let json: unknown;
      try {
        stats.calls += 1;
        response = await options.fetch(endpoint, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Accept: "application/json",
            "X-Shopify-Access-Token": options.accessToken,
            "User-Agent": "Stockbridge",
          },
          body,
          signal: deadline(timeoutMs, request.signal),
        });
        json = await readJsonBody(response);
        roundTrip =
          roundTrip === null ? clock.now() - sentAt : 0.8 * roundTrip + 0.2 * (clock.now() - sentAt);
      } catch (error) {
        if (error instanceof OutboundRefusedError) throw refused(error);
        if (request.signal?.aborted) throw error;
        if (request.retry !== false && attempt + 1 < maxAttempts) {
          attempt += 1;
          stats.retries += 1;
          await wait(backoffMs(attempt));
          continue;
        }
        throw isTimeout(error)
          ? new ShopifyError(
              `Shopify did not answer within ${Math.round(timeoutMs / 1000)} s (${attempt + 1} attempts)`,
              "unavailable",
            )
          : new ShopifyError(`Shopify could not be reached (${networkReason(error)})`, "unreachable");
      } finally {
        release();
      }

      const version = response.headers.get("X-Shopify-API-Version");
      if (version) servedVersion = version;
      const date = Date.parse(response.headers.get("Date") ?? "");
      if (Number.isFinite(date) && (serverTime === null || date > serverTime)) serverTime = date;
      const deprecated = response.headers.get("X-Shopify-API-Deprecated-Reason");
      if (deprecated) deprecationNotice = deprecated;
      const cost = readThrottleStatus(record(json)?.extensions);
      if (cost.status) throttle.update(cost.status);

      if (isThrottled(json)) {
        stats.throttled += 1;
        throttleWaits += 1;
        if (throttleWaits > maxThrottleWaits) {
          throw new ShopifyError(
            `Shopify kept throttling the request after ${maxThrottleWaits} waits`,
            "unavailable",
          );
        }
        await throttleWait(
          refillWait(cost.requested ?? expected, cost.status, retryAfterMs(response, clock.now())),
        );
        continue;
      }
      const failure = httpFailure(response, json, options);
      if (failure === "retry") {
        if (request.retry !== false && attempt + 1 < maxAttempts) {
          attempt += 1;
          stats.retries += 1;
          await wait(retryAfterMs(response, clock.now()) ?? backoffMs(attempt));
          continue;
        }
        throw new ShopifyError(
          `Shopify is unavailable (HTTP ${response.status} after ${attempt + 1} attempts)`,
          "unavailable",
        );
      }
      if (failure) throw failure;

      if (cost.requested !== null) learnedCost.set(query, cost.requested);
      stats.requestedPoints += cost.requested ?? 0;
      stats.points += cost.actual ?? 0;
      if (cost.actual) options.observe?.costPoints(cost.actual);
      const answer = record(json);
      return {
        data: (answer?.data ?? null) as T | null,
        errors: readErrors(answer?.errors),
        cost: { requested: cost.requested, actual: cost.actual },
      };
    }
  }

  /** Sends one operation and answers its `data`; any GraphQL error becomes a ShopifyError. */
  async function request<T>(
    query: string,
    variables: Record<string, unknown> = {},
    requestOptions: RequestOptions = {},
  ): Promise<T> {
    const answer = await execute<T>(query, variables, requestOptions);
    if (answer.errors.length > 0) throw graphqlFailure(answer.errors);
    if (answer.data === null) throw new ShopifyError("Shopify answered without data", "graphql");
    return answer.data;
  }

  return {
    request,
    execute,
    endpoint,
    apiVersion: options.apiVersion,
    stats,
    /** The version Shopify said it served on the last answer (expired versions fall forward). */
    get servedVersion(): string | null {
      return servedVersion;
    },
    /**
     * Shopify's time (its `Date` header, in ms) at the latest answer: what this client did is dated
     * at or before it by Shopify's clock. Null before an answer carried one.
     */
    get serverTime(): number | null {
      return serverTime;
    },
    /** What `X-Shopify-API-Deprecated-Reason` last said: the call used something Shopify deprecated. */
    get deprecationNotice(): string | null {
      return deprecationNotice;
    },
    throttleStatus(): ThrottleStatus | null {
      return throttle.status();
    },
    /** Points and refill rate of the bucket as Shopify last described it, refilled since; null before any answer. */
    bucket(): { available: number; restoreRate: number } | null {
      const available = throttle.available();
      const status = throttle.status();
      return available === null || !status ? null : { available, restoreRate: status.restoreRate };
    },
    /** The recent answered calls' round trip in ms (0 before the first). */
    roundTripMs(): number {
      return roundTrip ?? 0;
    },
  };
}

function refillWait(requested: number, status: ThrottleStatus | null, retryAfter: number | null): number {
  if (status) {
    const missing = Math.min(requested, status.maximumAvailable) - status.currentlyAvailable;
    return Math.max(50, Math.ceil((missing / status.restoreRate) * 1000) + 50);
  }
  return retryAfter ?? 1_000;
}
