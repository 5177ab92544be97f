import {
  ACUMATICA_QUANTITY_FIELDS,
  MESSAGES,
  type QuantityMapping,
  SHOPIFY_QUANTITY_FIELDS,
} from "@stockbridge/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { Card } from "../../ui/card.tsx";
import { Select } from "../../ui/select.tsx";
import { toast } from "../../ui/toast.tsx";
import { settingsKeys } from "./mapping-settings-queries.ts";

const QUANTITY_LABELS: Record<string, string> = {
  Available: "Available",
  OnHand: "On Hand",
  AvailableForShipping: "Available for Shipping",
};

const ACUMATICA_OPTIONS = ACUMATICA_QUANTITY_FIELDS.map((value) => ({
  value,
  label: QUANTITY_LABELS[value] ?? value,
}));
const SHOPIFY_OPTIONS = SHOPIFY_QUANTITY_FIELDS.map((value) => ({
  value,
  label: QUANTITY_LABELS[value] ?? value,
}));

/** Which Acumatica quantity becomes Shopify's quantity. The Shopify side is fixed (disabled) by the spec. */
export function QuantityMappingCard({ saved }: { saved: QuantityMapping }) {
  const api = useApi();
  const queryClient = useQueryClient();
  // Unsaved edits only; null shows what the server has, so a reload after saving is shown as is.
  const [draft, setDraft] = useState<QuantityMapping | null>(null);
  const value = draft ?? saved;

  const save = useMutation({
    mutationFn: (mapping: QuantityMapping) => api.call("saveQuantityMapping", { body: mapping }),
    onSuccess: async () => {
      toast.success(MESSAGES.settings.quantitySaved);
      setDraft(null);
      await queryClient.invalidateQueries({ queryKey: settingsKeys.all });
    },
    onError: (error) => toast.error(errorMessage(error, MESSAGES.settings.quantityFailed)),
  });

  return (
    <Card region title="Quantity Mapping" className="min-w-0">
      <form
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!save.isPending) save.mutate(value);
        }}
      >
        <p className="text-sm text-gray-600">
          The Acumatica quantity that sets the Shopify quantity of each mapped product.
        </p>
        <Select
          label="Acumatica Quantity"
          options={ACUMATICA_OPTIONS}
          value={value.acumaticaQuantity}
          onChange={(acumaticaQuantity) => setDraft({ ...value, acumaticaQuantity })}
          hint="Summed over the warehouses that feed each location (Location Mapping)."
        />
        <Select
          label="Shopify Quantity"
          options={SHOPIFY_OPTIONS}
          value={value.shopifyQuantity}
          onChange={(shopifyQuantity) => setDraft({ ...value, shopifyQuantity })}
          disabled
          hint="Set at each mapped Shopify location; fixed for now."
        />
        <div className="flex justify-end pt-1">
          <Button type="submit" loading={save.isPending}>
            Save Quantity Mapping
          </Button>
        </div>
      </form>
    </Card>
  );
}
