import type { AlertDelivery } from "@stockbridge/shared";
import { useQuery } from "@tanstack/react-query";
import { Mail, RefreshCw, Webhook } from "lucide-react";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { Card } from "../../ui/card.tsx";
import { Chip, type ChipTone } from "../../ui/chip.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { DELIVERY_STATUS_TEXT, describeAttempt, formatAlertDate } from "./notification-view.ts";
import { alertDeliveriesQuery } from "./queries.ts";

const STATUS_TONE: Record<AlertDelivery["status"], ChipTone> = {
  pending: "warning",
  delivered: "success",
  failed: "error",
};

/** The newest email and webhook deliveries: status, attempts, the last answer, the next try. */
export function DeliveriesCard() {
  const api = useApi();
  const deliveries = useQuery(alertDeliveriesQuery(api));
  return (
    <Card
      region
      title="Deliveries"
      className="min-w-0"
      actions={
        <Button
          variant="secondary"
          size="sm"
          icon={<RefreshCw className="size-4" aria-hidden="true" />}
          loading={deliveries.isFetching}
          onClick={() => void deliveries.refetch()}
        >
          Refresh
        </Button>
      }
    >
      <p className="text-sm text-gray-600">
        Emails and webhooks go out within a minute of an alert. A failed one is tried again 1, 2, 4… minutes
        later (at most 6 hours apart) for 24 hours.
      </p>
      {!deliveries.data ? (
        <div className="flex justify-center py-8">
          {deliveries.isError ? (
            <p className="text-sm text-gray-600">The deliveries could not be loaded.</p>
          ) : (
            <Spinner label="Loading deliveries" />
          )}
        </div>
      ) : deliveries.data.deliveries.length === 0 ? (
        <p className="py-8 text-center text-sm text-gray-600">No deliveries yet.</p>
      ) : (
        <ul aria-label="Deliveries" className="mt-4 divide-y divide-gray-200 rounded-md ring-1 ring-gray-200">
          {deliveries.data.deliveries.map((delivery) => (
            <li key={delivery._id} className="flex flex-col gap-1 px-4 py-3 text-sm">
              <p className="flex flex-wrap items-center gap-2">
                <Chip tone={STATUS_TONE[delivery.status]}>{DELIVERY_STATUS_TEXT[delivery.status]}</Chip>
                <span className="font-medium text-gray-900">{delivery.title}</span>
              </p>
              <p className="flex min-w-0 items-center gap-1.5 text-gray-700">
                {delivery.channel === "email" ? (
                  <Mail className="size-4 shrink-0 text-gray-500" aria-label="Email" />
                ) : (
                  <Webhook className="size-4 shrink-0 text-gray-500" aria-label="Webhook" />
                )}
                <span className="truncate">{delivery.target}</span>
              </p>
              <p className="text-xs text-gray-600">
                {describeAttempt(delivery)}
                {delivery.status === "pending" && delivery.nextAttemptAt
                  ? ` · next attempt ${formatAlertDate(delivery.nextAttemptAt)}`
                  : ""}
                {delivery.deliveredAt ? ` · delivered ${formatAlertDate(delivery.deliveredAt)}` : ""}
              </p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
