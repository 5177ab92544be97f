import * as v from "valibot";
import { noControlCharacters, queryInteger } from "./common.ts";

/**
 * What an alert is about: a run that ended `failed`, `partial` or `held`; a schedule whose time
 * passed by more than 10 minutes without the cron running it (`missed`); a run stopped because
 * Shopify or Acumatica refused the connection (`connection`, sent under `onFailed`).
 */
export const NOTIFICATION_KINDS = ["failed", "partial", "held", "missed", "connection"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How late a schedule may start before it counts as missed. */
export const MISSED_SCHEDULE_GRACE_MS = 10 * 60_000;
/** Newest first, this many per page unless `limit` says otherwise. */
export const NOTIFICATIONS_PAGE_SIZE = 20;

export const NotificationSchema = v.object({
  _id: v.string(),
  kind: v.picklist(NOTIFICATION_KINDS),
  title: v.string(),
  body: v.string(),
  /** The run the alert is about (null for a missed schedule: it has no run of its own). */
  historyId: v.nullable(v.string()),
  createdAt: v.string(),
  readAt: v.nullable(v.string()),
});
export type Notification = v.InferOutput<typeof NotificationSchema>;

export const NotificationListSchema = v.object({
  notifications: v.array(NotificationSchema),
  /** Every unread notification of the user, not only this page's. */
  unread: v.number(),
});
export type NotificationList = v.InferOutput<typeof NotificationListSchema>;

export const NotificationListQuerySchema = v.object({
  page: queryInteger("page", { fallback: 1, min: 1, max: 1_000_000 }),
  limit: queryInteger("limit", { fallback: NOTIFICATIONS_PAGE_SIZE, min: 1, max: 100 }),
});

export const UnreadCountSchema = v.object({ unread: v.number() });

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Blank text reads as "none" (null): a form's empty field turns the channel off. */
function blankIsNull<S extends v.GenericSchema<string, string>>(schema: S, field: string) {
  return v.nullable(
    v.pipe(
      v.string(`${field} must be text or null`),
      v.trim(),
      v.transform((text) => (text === "" ? null : text)),
      v.nullable(schema),
    ),
  );
}

export const NotificationEmailSchema = v.pipe(
  v.string(),
  v.maxLength(254, "email must be at most 254 characters"),
  noControlCharacters("email"),
  v.regex(EMAIL_PATTERN, "email must be an email address"),
);

/** Syntax only; the server checks the address it points at with the same rules as connections. */
export const WebhookUrlSchema = v.pipe(
  v.string(),
  v.maxLength(2048, "webhookUrl must be at most 2048 characters"),
  v.check((text) => {
    try {
      const url = new URL(text);
      return url.protocol === "https:" || url.protocol === "http:";
    } catch {
      return false;
    }
  }, "webhookUrl must be an http:// or https:// URL"),
);

function flag(field: string) {
  return v.boolean(`${field} must be true or false`);
}

/** PUT /settings/notifications: which alerts go out by email and webhook (in-app ones always do). */
export const NotificationSettingsInputSchema = v.object({
  email: blankIsNull(NotificationEmailSchema, "email"),
  webhookUrl: blankIsNull(WebhookUrlSchema, "webhookUrl"),
  onFailed: flag("onFailed"),
  onPartial: flag("onPartial"),
  onMissed: flag("onMissed"),
  onHeld: flag("onHeld"),
});
export type NotificationSettingsInput = v.InferOutput<typeof NotificationSettingsInputSchema>;

export const NotificationSettingsSchema = v.object({
  email: v.nullable(v.string()),
  webhookUrl: v.nullable(v.string()),
  onFailed: v.boolean(),
  onPartial: v.boolean(),
  onMissed: v.boolean(),
  onHeld: v.boolean(),
  /** Whether a webhook signing secret exists; the secret itself is only answered when created. */
  webhookSecretSet: v.boolean(),
  webhookSecretCreatedAt: v.nullable(v.string()),
  /** Whether this server sends email at all (SMTP_URL is configured); without it only the app and webhooks alert. */
  emailEnabled: v.boolean(),
});
export type NotificationSettings = v.InferOutput<typeof NotificationSettingsSchema>;

/** The answer to creating (or rotating) the webhook signing secret: the only time it is shown. */
export const WebhookSecretSchema = v.object({ secret: v.string(), createdAt: v.string() });
export type WebhookSecret = v.InferOutput<typeof WebhookSecretSchema>;

export const ALERT_CHANNELS = ["email", "webhook"] as const;
export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;

export const AlertDeliverySchema = v.object({
  _id: v.string(),
  notificationId: v.string(),
  channel: v.picklist(ALERT_CHANNELS),
  /** The email address or webhook URL it goes to. */
  target: v.string(),
  /** The alert's title, so the list says what each delivery carries. */
  title: v.string(),
  status: v.picklist(DELIVERY_STATUSES),
  attempts: v.number(),
  /** The receiver's HTTP status (webhooks) or SMTP reply code (email) of the last attempt. */
  lastStatusCode: v.nullable(v.number()),
  lastError: v.nullable(v.string()),
  /** When the next attempt is due; null once delivered or given up. */
  nextAttemptAt: v.nullable(v.string()),
  createdAt: v.string(),
  deliveredAt: v.nullable(v.string()),
});
export type AlertDelivery = v.InferOutput<typeof AlertDeliverySchema>;

export const AlertDeliveryListSchema = v.object({ deliveries: v.array(AlertDeliverySchema) });
