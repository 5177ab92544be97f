import { MESSAGES, type SafetyLimits, validateSafetyLimitsForm } from "@stockbridge/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { Card } from "../../ui/card.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { TextInput } from "../../ui/text-input.tsx";
import { toast } from "../../ui/toast.tsx";
import { safetyLimitsQuery, settingsKeys } from "./mapping-settings-queries.ts";

type SafetyForm = Record<keyof SafetyLimits, string>;

function formOf(limits: SafetyLimits): SafetyForm {
  return {
    maxPriceChangePercent: String(limits.maxPriceChangePercent),
    maxZeroedPercent: String(limits.maxZeroedPercent),
  };
}

/**
 * Safety limits: a scheduled run or sync job that would move a price, or zero stock, beyond these
 * is held in Execution History for someone to approve or discard, instead of written.
 */
export function SafetyLimitsCard() {
  const api = useApi();
  const saved = useQuery(safetyLimitsQuery(api));
  return (
    <Card region title="Safety Limits" className="min-w-0 lg:col-span-2">
      {saved.data ? (
        <SafetyLimitsForm saved={saved.data} />
      ) : saved.isError ? (
        <div className="text-sm text-gray-600">
          <p>The safety limits could not be loaded.</p>
          <Button variant="secondary" className="mt-3" onClick={() => void saved.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <Spinner label="Loading safety limits" />
      )}
    </Card>
  );
}

function SafetyLimitsForm({ saved }: { saved: SafetyLimits }) {
  const api = useApi();
  const queryClient = useQueryClient();
  // Unsaved edits only; null shows what the server has.
  const [draft, setDraft] = useState<SafetyForm | null>(null);
  const [checked, setChecked] = useState(false);
  const value = draft ?? formOf(saved);
  const errors = checked ? validateSafetyLimitsForm(value) : {};

  const save = useMutation({
    mutationFn: (limits: SafetyLimits) => api.call("saveSafetyLimits", { body: limits }),
    onSuccess: async () => {
      toast.success(MESSAGES.settings.safetySaved);
      setDraft(null);
      setChecked(false);
      await queryClient.invalidateQueries({ queryKey: settingsKeys.safety() });
    },
    onError: (failure) => toast.error(errorMessage(failure, MESSAGES.settings.safetyFailed)),
  });

  return (
    <form
      className="flex flex-col gap-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setChecked(true);
        if (Object.keys(validateSafetyLimitsForm(value)).length > 0 || save.isPending) return;
        save.mutate({
          maxPriceChangePercent: Number(value.maxPriceChangePercent),
          maxZeroedPercent: Number(value.maxZeroedPercent),
        });
      }}
    >
      <p className="text-sm text-gray-600">
        Scheduled runs and sync jobs that go past a limit are held in Execution History, with their plan,
        until you approve or discard them. Nothing is written before then. A run whose Acumatica answer has no
        items at all is always held. Syncing one mapping from the Mapping screen is never held.
      </p>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextInput
          label="Maximum price change (%)"
          type="number"
          inputMode="numeric"
          min={0}
          max={1000}
          step={1}
          value={value.maxPriceChangePercent}
          onChange={(event) => setDraft({ ...value, maxPriceChangePercent: event.target.value })}
          error={errors.maxPriceChangePercent}
          hint="Price or compare-at price, against what Shopify shows now. 0 turns this limit off."
        />
        <TextInput
          label="Maximum quantities set to 0 (%)"
          type="number"
          inputMode="numeric"
          min={0}
          max={100}
          step={1}
          value={value.maxZeroedPercent}
          onChange={(event) => setDraft({ ...value, maxZeroedPercent: event.target.value })}
          error={errors.maxZeroedPercent}
          hint="Share of the run's quantities going from stock to 0. 0 turns this limit off."
        />
      </div>
      <div className="flex justify-end pt-1">
        <Button type="submit" loading={save.isPending}>
          Save Safety Limits
        </Button>
      </div>
    </form>
  );
}
