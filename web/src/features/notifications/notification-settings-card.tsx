import {
  ApiError,
  MESSAGES,
  NotificationEmailSchema,
  type NotificationSettings,
  type NotificationSettingsInput,
  WebhookUrlSchema,
} from "@stockbridge/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import * as v from "valibot";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { Card } from "../../ui/card.tsx";
import { Checkbox } from "../../ui/checkbox.tsx";
import { TextInput } from "../../ui/text-input.tsx";
import { toast } from "../../ui/toast.tsx";
import { notificationKeys } from "./queries.ts";

interface Draft {
  email: string;
  webhookUrl: string;
  onFailed: boolean;
  onPartial: boolean;
  onMissed: boolean;
  onHeld: boolean;
}

type TextField = "email" | "webhookUrl";

const KINDS = [
  {
    key: "onFailed",
    label: "Failed runs",
    description: "Nothing synced, or Shopify or Acumatica refused the connection.",
  },
  { key: "onPartial", label: "Runs with failures", description: "Some mappings failed while others synced." },
  {
    key: "onMissed",
    label: "Missed schedules",
    description: "A schedule did not start within 10 minutes of its time.",
  },
  {
    key: "onHeld",
    label: "Held runs",
    description: "A safety limit stopped a run before it wrote anything.",
  },
] as const;

function draftOf(settings: NotificationSettings): Draft {
  return {
    email: settings.email ?? "",
    webhookUrl: settings.webhookUrl ?? "",
    onFailed: settings.onFailed,
    onPartial: settings.onPartial,
    onMissed: settings.onMissed,
    onHeld: settings.onHeld,
  };
}

/** The shared rules, so the form says what the server would: blank is allowed (no email / no webhook). */
function fieldError(field: TextField, value: string): string | undefined {
  const text = value.trim();
  if (!text) return undefined;
  const result = v.safeParse(field === "email" ? NotificationEmailSchema : WebhookUrlSchema, text);
  return result.success ? undefined : result.issues[0]?.message;
}

/** Where alerts go besides the bell, and which kinds: email, webhook URL and one switch per kind. */
export function NotificationSettingsCard({ saved }: { saved: NotificationSettings }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [touched, setTouched] = useState<Partial<Record<TextField, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<TextField, string>>>({});
  const value = draft ?? draftOf(saved);

  const save = useMutation({
    mutationFn: (input: NotificationSettingsInput) => api.call("saveNotificationSettings", { body: input }),
    onSuccess: async (settings) => {
      toast.success(MESSAGES.notifications.settingsSaved);
      queryClient.setQueryData(notificationKeys.settings(), settings);
      setDraft(null);
      setTouched({});
      await queryClient.invalidateQueries({ queryKey: notificationKeys.settings() });
    },
    onError: (failure) => {
      if (failure instanceof ApiError) {
        const byField: Partial<Record<TextField, string>> = {};
        for (const issue of failure.errors) {
          if (issue.path === "email" || issue.path === "webhookUrl") byField[issue.path] = issue.message;
        }
        setServerErrors(byField);
      }
      toast.error(errorMessage(failure, MESSAGES.notifications.settingsFailed));
    },
  });

  const errorFor = (field: TextField) =>
    serverErrors[field] ?? (touched[field] ? fieldError(field, value[field]) : undefined);

  function change(next: Partial<Draft>): void {
    setDraft({ ...value, ...next });
    for (const field of Object.keys(next)) {
      if (field === "email" || field === "webhookUrl") {
        setTouched((current) => ({ ...current, [field]: true }));
        setServerErrors((current) => ({ ...current, [field]: undefined }));
      }
    }
  }

  return (
    <Card region title="Notifications" className="min-w-0">
      <form
        className="flex flex-col gap-5"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTouched({ email: true, webhookUrl: true });
          if (
            fieldError("email", value.email) ||
            fieldError("webhookUrl", value.webhookUrl) ||
            save.isPending
          )
            return;
          save.mutate({
            ...value,
            email: value.email.trim() || null,
            webhookUrl: value.webhookUrl.trim() || null,
          });
        }}
      >
        <p className="text-sm text-gray-600">
          Every alert appears under the bell in the top bar. Choose which ones also reach you by email and by
          webhook.
        </p>
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            value={value.email}
            error={errorFor("email")}
            hint={
              saved.emailEnabled
                ? "Leave blank to get no emails."
                : "This server has no mail server configured (SMTP_URL), so no emails are sent."
            }
            onChange={(event) => change({ email: event.target.value })}
          />
          <TextInput
            label="Webhook URL"
            type="url"
            inputMode="url"
            placeholder="https://example.com/hooks/stockbridge"
            value={value.webhookUrl}
            error={errorFor("webhookUrl")}
            hint="Receives a signed JSON POST per alert. Leave blank for none."
            onChange={(event) => change({ webhookUrl: event.target.value })}
          />
        </div>
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 text-sm font-medium text-gray-800">
            Send email and webhook alerts for
          </legend>
          {KINDS.map((kind) => (
            <Checkbox
              key={kind.key}
              label={kind.label}
              description={kind.description}
              checked={value[kind.key]}
              onChange={(checked) => change({ [kind.key]: checked })}
            />
          ))}
        </fieldset>
        <div className="flex justify-end">
          <Button type="submit" loading={save.isPending}>
            Save Notification Settings
          </Button>
        </div>
      </form>
    </Card>
  );
}
