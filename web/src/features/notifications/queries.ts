import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api.ts";

/** Keys of alerts: the bell's list, and Settings > Notifications (settings, deliveries). */
export const notificationKeys = {
  all: ["notifications"] as const,
  list: () => [...notificationKeys.all, "list"] as const,
  settings: () => [...notificationKeys.all, "settings"] as const,
  deliveries: () => [...notificationKeys.all, "deliveries"] as const,
};

/** Alerts are recorded by the server at any time (the cron runs every minute): the bell asks that often. */
const BELL_REFRESH_MS = 60_000;
/** How many the bell's panel shows; older ones stay on the server. */
const BELL_LIMIT = 20;

/** GET /notifications: the newest alerts and the unread count, for the top bar's bell. */
export function notificationsQuery(api: ApiClient) {
  return queryOptions({
    queryKey: notificationKeys.list(),
    queryFn: () => api.call("listNotifications", { query: { limit: String(BELL_LIMIT) } }),
    staleTime: 0,
    refetchInterval: BELL_REFRESH_MS,
    refetchOnWindowFocus: true,
    // The panel says itself when the list cannot be read; a toast a minute would be noise.
    meta: { silent: true },
  });
}

export function notificationSettingsQuery(api: ApiClient) {
  return queryOptions({
    queryKey: notificationKeys.settings(),
    queryFn: () => api.call("notificationSettings"),
  });
}

/** Deliveries change as the cron sends them: read afresh whenever the tab shows them. */
export function alertDeliveriesQuery(api: ApiClient) {
  return queryOptions({
    queryKey: notificationKeys.deliveries(),
    queryFn: () => api.call("alertDeliveries"),
    staleTime: 0,
  });
}
