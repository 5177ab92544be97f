import { toHex } from "../security/bytes.ts";
import type { FetchLike } from "../security/outbound-guard.ts";

/** The header that carries a webhook's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
const SIGNATURE_HEADER = "Stockbridge-Signature";
/** The delivery's id: the same on every retry of one alert, so a receiver can drop repeats. */
const DELIVERY_HEADER = "Stockbridge-Delivery";
const TIMEOUT_MS = 10_000;

/** Hex HMAC-SHA256 of `${timestamp}.${body}` with the user's secret (the scheme Stripe uses). */
async function signWebhook(secret: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${timestamp}.${body}`));
  return toHex(new Uint8Array(mac));
}

export interface WebhookAttempt {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
}

/**
 * POSTs the JSON body, signed at the time of sending, through the app's guarded outbound fetch
 * (the address rules of connections; redirects are not followed). Any 2xx is delivered.
 */
export async function sendWebhook(
  fetch: FetchLike,
  delivery: { id: string; url: string; body: string; secret: string; now: Date },
): Promise<WebhookAttempt> {
  const timestamp = Math.floor(delivery.now.getTime() / 1000);
  const signature = await signWebhook(delivery.secret, timestamp, delivery.body);
  let response: Response;
  try {
    response = await fetch(delivery.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Stockbridge-Webhooks/1",
        [SIGNATURE_HEADER]: `t=${timestamp},v1=${signature}`,
        [DELIVERY_HEADER]: delivery.id,
      },
      body: delivery.body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    const reason = timedOut
      ? `no answer within ${TIMEOUT_MS / 1000} seconds`
      : error instanceof Error
        ? error.message
        : String(error);
    return { delivered: false, statusCode: null, error: `The webhook could not be sent: ${reason}` };
  }
  // The answer's body is not read: only its status counts.
  await response.body?.cancel().catch(() => {});
  if (response.status >= 200 && response.status < 300)
    return { delivered: true, statusCode: response.status, error: null };
  const redirect = response.status >= 300 && response.status < 400;
  return {
    delivered: false,
    statusCode: response.status,
    error: redirect
      ? `The receiver answered HTTP ${response.status} (redirects are not followed; use the final URL)`
      : `The receiver answered HTTP ${response.status}`,
  };
}
