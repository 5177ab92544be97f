import { MESSAGES, type NotificationSettings, type WebhookSecret } from "@stockbridge/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { Card } from "../../ui/card.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { ShownOnce } from "../../ui/shown-once.tsx";
import { toast } from "../../ui/toast.tsx";
import { formatAlertDate } from "./notification-view.ts";
import { notificationKeys } from "./queries.ts";

/**
 * The secret that signs webhooks: created (or rotated, after a confirmation) by a button and shown
 * once; afterwards only when it was made.
 */
export function WebhookSecretCard({ saved }: { saved: NotificationSettings }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [created, setCreated] = useState<WebhookSecret | null>(null);

  const create = useMutation({
    mutationFn: () => api.call("createWebhookSecret"),
    onSuccess: async (secret) => {
      setConfirming(false);
      setCreated(secret);
      toast.success(MESSAGES.notifications.secretCreated);
      await queryClient.invalidateQueries({ queryKey: notificationKeys.settings() });
    },
    onError: (failure) => toast.error(errorMessage(failure, MESSAGES.notifications.secretFailed)),
  });

  return (
    <Card region title="Webhook signing secret" className="min-w-0">
      <div className="flex flex-col gap-4 text-sm text-gray-600 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-col gap-1">
          <p>
            Each webhook carries{" "}
            <code className="font-mono text-xs break-all">Stockbridge-Signature: t=…,v1=…</code>, the
            HMAC-SHA256 of <code className="font-mono text-xs">t.body</code> under this secret.
          </p>
          <p className="flex items-center gap-2 text-gray-800">
            <KeyRound className="size-4 text-gray-500" aria-hidden="true" />
            {saved.webhookSecretSet
              ? `Created ${formatAlertDate(saved.webhookSecretCreatedAt)}`
              : "No secret yet: webhooks wait until one is created."}
          </p>
        </div>
        <Button
          variant={saved.webhookSecretSet ? "secondary" : "primary"}
          loading={create.isPending && !confirming}
          onClick={() => (saved.webhookSecretSet ? setConfirming(true) : create.mutate())}
        >
          {saved.webhookSecretSet ? "Rotate secret" : "Create secret"}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={() => create.mutate()}
        title="Rotate webhook secret"
        message="The current secret stops signing at once: update your receiver with the new one."
        confirmLabel="Rotate"
        loading={create.isPending}
      />
      <NewSecretDialog secret={created} onClose={() => setCreated(null)} />
    </Card>
  );
}

function NewSecretDialog({ secret, onClose }: { secret: WebhookSecret | null; onClose(): void }) {
  return (
    <Dialog
      open={secret !== null}
      onClose={onClose}
      title="Webhook signing secret"
      size="md"
      footer={<Button onClick={onClose}>Done</Button>}
    >
      {secret ? (
        <div className="flex flex-col gap-4 text-sm text-gray-700">
          <ShownOnce id="new-webhook-secret" label="Secret" value={secret.secret} noun="secret" />
        </div>
      ) : null}
    </Dialog>
  );
}
