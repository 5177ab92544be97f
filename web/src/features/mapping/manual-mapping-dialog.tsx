import { canSubmitManualMapping, type Mapping, type MappingInput, MESSAGES } from "@stockbridge/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { FormDialog } from "../../ui/form-dialog.tsx";
import { toast } from "../../ui/toast.tsx";
import { productChoices } from "./mapping-logic.ts";
import { ProductPicker } from "./product-picker.tsx";
import { mappingKeys, unmappedQuery } from "./queries.ts";

export interface ManualMappingDialogProps {
  open: boolean;
  onClose(): void;
  /** The mapping being edited, or null to create one. */
  editing: Mapping | null;
}

/** 'Manual Mapping' / 'Edit Mapping': one Shopify variant and one Acumatica item, picked by SKU. */
export function ManualMappingDialog({ open, onClose, editing }: ManualMappingDialogProps) {
  const api = useApi();
  const queryClient = useQueryClient();
  const unmapped = useQuery({ ...unmappedQuery(api), enabled: open });
  const [shopifyId, setShopifyId] = useState<string | null>(null);
  const [acumaticaId, setAcumaticaId] = useState<string | null>(null);

  // Each opening starts from the edited pair (or nothing); a failed save keeps the choices.
  useEffect(() => {
    if (!open) return;
    setShopifyId(editing?.shopifyDetails.variantId ?? null);
    setAcumaticaId(editing?.acumaticaDetails.acumaticaId ?? null);
  }, [open, editing]);

  const shopifyChoices = useMemo(
    () =>
      productChoices(
        (unmapped.data?.shopify ?? []).map((product) => ({ id: product.variantId, sku: product.sku })),
        editing ? { id: editing.shopifyDetails.variantId, sku: editing.shopifyDetails.sku } : null,
      ),
    [unmapped.data, editing],
  );
  const acumaticaChoices = useMemo(
    () =>
      productChoices(
        (unmapped.data?.acumatica ?? []).map((product) => ({ id: product.acumaticaId, sku: product.sku })),
        editing ? { id: editing.acumaticaDetails.acumaticaId, sku: editing.acumaticaDetails.sku } : null,
      ),
    [unmapped.data, editing],
  );

  const save = useMutation({
    mutationFn: (input: MappingInput) =>
      editing
        ? api.call("updateMapping", { params: { id: editing._id }, body: input })
        : api.call("manualMap", { body: input }),
    onSuccess: async () => {
      toast.success(editing ? MESSAGES.mapping.updated : MESSAGES.mapping.manualMapped);
      onClose();
      await queryClient.invalidateQueries({ queryKey: mappingKeys.all });
    },
    onError: (error) => {
      toast.error(
        errorMessage(error, editing ? MESSAGES.mapping.updateFailed : MESSAGES.mapping.manualMapFailed),
      );
    },
  });

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={editing ? "Edit Mapping" : "Manual Mapping"}
      description="Choose the Shopify variant and the Acumatica item that are the same product."
      submitLabel={editing ? "Update" : "Map Products"}
      canSubmit={canSubmitManualMapping({ shopifyVariantId: shopifyId, acumaticaProductId: acumaticaId })}
      busy={save.isPending}
      onSubmit={() => {
        if (shopifyId && acumaticaId)
          save.mutate({ shopifyVariantId: shopifyId, acumaticaProductId: acumaticaId });
      }}
      className="gap-4"
    >
      <ProductPicker
        label="Shopify Product"
        choices={shopifyChoices}
        value={shopifyId}
        onChange={setShopifyId}
        loading={unmapped.isPending}
        disabled={save.isPending}
      />
      <ProductPicker
        label="Acumatica Product"
        choices={acumaticaChoices}
        value={acumaticaId}
        onChange={setAcumaticaId}
        loading={unmapped.isPending}
        disabled={save.isPending}
      />
      {unmapped.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(unmapped.error, MESSAGES.mapping.fetchUnmappedFailed)}
        </p>
      ) : null}
    </FormDialog>
  );
}
