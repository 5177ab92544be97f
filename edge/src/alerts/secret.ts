import { toBase64Url } from "../security/bytes.ts";

/** Prefix of webhook signing secrets, so one is told apart from other keys when it leaks. */
const WEBHOOK_SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 32;

/** The secret box's additional data: a sealed secret opens only as this user's webhook secret. */
export function webhookSecretContext(userId: string): string {
  return `alerts.webhookSecret:${userId}`;
}

/** 256 random bits, as `whsec_` and 43 base64url characters. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${toBase64Url(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)))}`;
}
