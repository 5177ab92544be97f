/**
 * The `Stripe-Signature` header Stripe puts on webhook deliveries:
 * `t={unix seconds},v1={hex HMAC-SHA256(secret, "{t}.{payload}")}`. WebCrypto, so it runs on
 * Deno and Node alike.
 */
export async function signWebhookPayload(
  secret: string,
  payload: string,
  timestamp: number,
): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${timestamp}.${payload}`));
  const hex = [...new Uint8Array(mac)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `t=${timestamp},v1=${hex}`;
}
