import { useQuery } from "@tanstack/react-query";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { DeliveriesCard } from "./deliveries-card.tsx";
import { NotificationSettingsCard } from "./notification-settings-card.tsx";
import { notificationSettingsQuery } from "./queries.ts";
import { WebhookSecretCard } from "./webhook-secret-card.tsx";

/** Settings > Notifications: where alerts go and which, the webhook's signing secret, the deliveries. */
export function NotificationsTab() {
  const api = useApi();
  const settings = useQuery(notificationSettingsQuery(api));
  if (!settings.data) {
    return (
      <div className="flex justify-center py-12">
        {settings.isError ? (
          <div className="text-center text-sm text-gray-600">
            <p>The notification settings could not be loaded.</p>
            <Button variant="secondary" className="mt-3" onClick={() => void settings.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <Spinner label="Loading notification settings" />
        )}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <NotificationSettingsCard saved={settings.data} />
      <WebhookSecretCard saved={settings.data} />
      <DeliveriesCard />
    </div>
  );
}
