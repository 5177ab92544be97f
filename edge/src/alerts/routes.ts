import type { Handlers } from "../http/contract-routes.ts";
import type { NotificationService } from "./service.ts";

/** Thin adapters from the contract to the notification service; the caller is always the owner. */
export function notificationHandlers(notifications: NotificationService): Handlers {
  return {
    listNotifications: ({ caller, input }) => notifications.list(caller.userId, input.query),
    readNotification: ({ caller, input }) => notifications.read(caller.userId, input.params.id),
    readAllNotifications: ({ caller }) => notifications.readAll(caller.userId),
    notificationSettings: ({ caller }) => notifications.settings(caller.userId),
    saveNotificationSettings: ({ caller, input }) => notifications.saveSettings(caller.userId, input.body),
    createWebhookSecret: ({ caller }) => notifications.createWebhookSecret(caller.userId),
    alertDeliveries: async ({ caller }) => ({ deliveries: await notifications.deliveries(caller.userId) }),
  };
}
