import {
  type AlertDelivery,
  MESSAGES,
  type Notification,
  type NotificationList,
  type NotificationSettings,
  type NotificationSettingsInput,
  type WebhookSecret,
} from "@stockbridge/shared";
import { NotFoundError, ValidationError } from "../errors.ts";
import { type OutboundGuard, OutboundRefusedError } from "../security/outbound-guard.ts";
import type { SecretBox } from "../security/secret-box.ts";
import type { DeliveryRepo } from "./delivery-repo.ts";
import { effectiveSettings } from "./effective-settings.ts";
import type { AlertsRepo } from "./repo.ts";
import { newWebhookSecret, webhookSecretContext } from "./secret.ts";

export interface NotificationServiceDeps {
  repo: AlertsRepo;
  deliveries: Pick<DeliveryRepo, "list">;
  secrets: SecretBox;
  guard: Pick<OutboundGuard, "check">;
  /** Whether SMTP_URL is configured (shown in Settings, which can then say email is off). */
  emailEnabled: boolean;
  now: () => Date;
}

/** The bell's notifications and Settings > Notifications: where alerts go, the webhook secret, deliveries. */
export function createNotificationService(deps: NotificationServiceDeps) {
  const { repo } = deps;

  async function settingsView(userId: string): Promise<NotificationSettings> {
    const [settings, secret] = await Promise.all([
      effectiveSettings(repo, userId),
      repo.webhookSecret(userId),
    ]);
    return {
      ...settings,
      webhookSecretSet: secret !== null,
      webhookSecretCreatedAt: secret?.createdAt ?? null,
      emailEnabled: deps.emailEnabled,
    };
  }

  /** The same address rules as a connection's instance URL; a host that does not resolve yet may later. */
  async function checkWebhookUrl(url: string): Promise<void> {
    try {
      await deps.guard.check(url);
    } catch (error) {
      if (!(error instanceof OutboundRefusedError) || error.kind === "unresolvable") return;
      const message = `webhookUrl is not allowed: ${error.message}`;
      throw new ValidationError(message, [{ path: "webhookUrl", message }]);
    }
  }

  return {
    list(userId: string, query: { page: number; limit: number }): Promise<NotificationList> {
      return repo.page(userId, { offset: (query.page - 1) * query.limit, limit: query.limit });
    },

    async read(userId: string, id: string): Promise<{ notification: Notification; unread: number }> {
      const read = await repo.markRead(userId, { id, readAt: deps.now().toISOString() });
      if (!read) throw new NotFoundError(MESSAGES.notifications.notFound);
      return read;
    },

    async readAll(userId: string): Promise<{ unread: number }> {
      await repo.markAllRead(userId, deps.now().toISOString());
      return { unread: 0 };
    },

    settings: settingsView,

    async saveSettings(userId: string, input: NotificationSettingsInput): Promise<NotificationSettings> {
      if (input.webhookUrl) await checkWebhookUrl(input.webhookUrl);
      await repo.saveSettings(userId, { settings: input, updatedAt: deps.now().toISOString() });
      return settingsView(userId);
    },

    /** A new secret replaces the old at once; it is sealed at rest and answered only here. */
    async createWebhookSecret(userId: string): Promise<WebhookSecret> {
      const secret = newWebhookSecret();
      const createdAt = deps.now().toISOString();
      const sealed = await deps.secrets.seal(secret, webhookSecretContext(userId));
      await repo.saveWebhookSecret(userId, { sealed, createdAt });
      return { secret, createdAt };
    },

    deliveries(userId: string): Promise<AlertDelivery[]> {
      return deps.deliveries.list(userId);
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
