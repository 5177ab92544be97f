import { MESSAGES, type PriceMapping, validatePriceMapping } from "@stockbridge/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { Card } from "../../ui/card.tsx";
import { Checkbox } from "../../ui/checkbox.tsx";
import { toast } from "../../ui/toast.tsx";
import { settingsKeys } from "./mapping-settings-queries.ts";

/** Which ERP prices a sync writes: default price -> price, MSRP -> compare-at price. At least one. */
export function PriceMappingCard({ saved }: { saved: PriceMapping }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const errorId = useId();
  const [draft, setDraft] = useState<PriceMapping | null>(null);
  // The rule shows once the user has changed something or tried to save, not on a fresh default.
  const [checked, setChecked] = useState(false);
  const value = draft ?? saved;
  const error = checked ? validatePriceMapping(value) : undefined;

  const save = useMutation({
    mutationFn: (mapping: PriceMapping) => api.call("savePriceMapping", { body: mapping }),
    onSuccess: async () => {
      toast.success(MESSAGES.settings.priceSaved);
      setDraft(null);
      setChecked(false);
      await queryClient.invalidateQueries({ queryKey: settingsKeys.all });
    },
    onError: (failure) => toast.error(errorMessage(failure, MESSAGES.settings.priceFailed)),
  });

  function change(next: PriceMapping): void {
    setDraft(next);
    setChecked(true);
  }

  return (
    <Card region title="Price Mapping" className="min-w-0">
      <form
        className="flex flex-col gap-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setChecked(true);
          if (validatePriceMapping(value) || save.isPending) return;
          save.mutate(value);
        }}
      >
        <p className="text-sm text-gray-600">The Acumatica prices a sync writes to Shopify.</p>
        <fieldset className="flex flex-col gap-3" aria-describedby={error ? errorId : undefined}>
          <legend className="sr-only">Price fields to sync</legend>
          <Checkbox
            label="Sync Price"
            description="Acumatica default price sets the Shopify price."
            checked={value.syncPrice}
            onChange={(syncPrice) => change({ ...value, syncPrice })}
          />
          <Checkbox
            label="Sync MSRP"
            description="Acumatica MSRP sets the Shopify compare-at price."
            checked={value.syncMsrp}
            onChange={(syncMsrp) => change({ ...value, syncMsrp })}
          />
        </fieldset>
        {error ? (
          <p id={errorId} role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <div className="flex justify-end pt-1">
          <Button type="submit" loading={save.isPending}>
            Save Price Mapping
          </Button>
        </div>
      </form>
    </Card>
  );
}
