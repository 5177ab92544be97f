import { MESSAGES, type NotificationSettings, type WebhookSecret } from "@stockbridge/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Check, Copy, KeyRound, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { Card } from "../../ui/card.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Dialog } from "../../ui/dialog.tsx";
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
  const [copied, setCopied] = useState(false);

  async function copy(text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a denied permission): the field stays there to copy by hand.
      toast.error("Could not copy: select the secret and copy it yourself.");
    }
  }

  return (
    <Dialog
      open={secret !== null}
      onClose={() => {
        setCopied(false);
        onClose();
      }}
      title="Webhook signing secret"
      size="md"
      footer={
        <Button
          onClick={() => {
            setCopied(false);
            onClose();
          }}
        >
          Done
        </Button>
      }
    >
      {secret ? (
        <div className="flex flex-col gap-4 text-sm text-gray-700">
          <p
            role="alert"
            className="flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2 text-amber-900 ring-1 ring-amber-200"
          >
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            Copy this secret now. It will not be shown again.
          </p>
          <div className="flex flex-col gap-1.5">
            <label htmlFor="new-webhook-secret" className="font-medium text-gray-800">
              Secret
            </label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <input
                id="new-webhook-secret"
                readOnly
                value={secret.secret}
                onFocus={(event) => event.currentTarget.select()}
                className="min-w-0 flex-1 rounded-md bg-gray-50 px-3 py-2 font-mono text-xs text-gray-900 ring-1 ring-gray-300 ring-inset"
              />
              <Button
                variant="secondary"
                icon={
                  copied ? (
                    <Check className="size-4" aria-hidden="true" />
                  ) : (
                    <Copy className="size-4" aria-hidden="true" />
                  )
                }
                onClick={() => void copy(secret.secret)}
              >
                {copied ? "Copied" : "Copy"}
              </Button>
            </div>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
