import type { NotificationKind, NotificationSettingsInput } from "@stockbridge/shared";
import type { AlertsRepo } from "./repo.ts";

/**
 * Before a user saves Settings > Notifications, failures and missed runs are on and go to the
 * account's email: an unwatched nightly run that fails should reach someone without set-up.
 * Saving `email: null` turns email off; partial and held runs are opted into.
 */
const DEFAULT_ALERT_FLAGS = {
  onFailed: true,
  onPartial: false,
  onMissed: true,
  onHeld: false,
} as const;

/** The settings in force for a user: the saved ones, or the defaults with the account's email. */
export async function effectiveSettings(
  repo: Pick<AlertsRepo, "settings" | "accountEmail">,
  userId: string,
): Promise<NotificationSettingsInput> {
  const saved = await repo.settings(userId);
  if (saved) return saved;
  return { email: await repo.accountEmail(userId), webhookUrl: null, ...DEFAULT_ALERT_FLAGS };
}

/** Whether email and webhook carry an alert of this kind (a refused connection is a failure). */
export function sendsKind(settings: NotificationSettingsInput, kind: NotificationKind): boolean {
  if (kind === "failed" || kind === "connection") return settings.onFailed;
  if (kind === "partial") return settings.onPartial;
  if (kind === "held") return settings.onHeld;
  return settings.onMissed;
}
