import { canSubmitManualMapping, type Mapping, type MappingInput, MESSAGES } from "@stockbridge/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { FormDialog } from "../../ui/form-dialog.tsx";
import { toast } from "../../ui/toast.tsx";
import { type ProductChoice, productChoices, type UnmappedRequest } from "./mapping-logic.ts";
import { PICKER_PAGE_SIZE, ProductPicker } from "./product-picker.tsx";
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
  const [shopify, setShopify] = useState<ProductChoice | null>(null);
  const [acumatica, setAcumatica] = useState<ProductChoice | null>(null);
  const [shopifySearch, setShopifySearch] = useState("");
  const [acumaticaSearch, setAcumaticaSearch] = useState("");
  // Each list asks the server for the first page matching its own search (one request while both
  // searches are the same, as when the dialog opens).
  const shopifyList = useQuery({ ...unmappedQuery(api, pickerRequest(shopifySearch)), enabled: open });
  const acumaticaList = useQuery({ ...unmappedQuery(api, pickerRequest(acumaticaSearch)), enabled: open });

  // Each opening starts from the edited pair (or nothing); a failed save keeps the choices.
  useEffect(() => {
    if (!open) return;
    setShopify(editing ? { id: editing.shopifyDetails.variantId, sku: editing.shopifyDetails.sku } : null);
    setAcumatica(
      editing ? { id: editing.acumaticaDetails.acumaticaId, sku: editing.acumaticaDetails.sku } : null,
    );
  }, [open, editing]);

  const shopifyChoices = useMemo(
    () =>
      productChoices(
        (shopifyList.data?.shopify ?? []).map((product) => ({ id: product.variantId, sku: product.sku })),
        editing ? { id: editing.shopifyDetails.variantId, sku: editing.shopifyDetails.sku } : null,
      ),
    [shopifyList.data, editing],
  );
  const acumaticaChoices = useMemo(
    () =>
      productChoices(
        (acumaticaList.data?.acumatica ?? []).map((product) => ({
          id: product.acumaticaId,
          sku: product.sku,
        })),
        editing ? { id: editing.acumaticaDetails.acumaticaId, sku: editing.acumaticaDetails.sku } : null,
      ),
    [acumaticaList.data, editing],
  );
  const listError = shopifyList.error ?? acumaticaList.error;

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
      canSubmit={canSubmitManualMapping({
        shopifyVariantId: shopify?.id ?? null,
        acumaticaProductId: acumatica?.id ?? null,
      })}
      busy={save.isPending}
      onSubmit={() => {
        if (shopify && acumatica)
          save.mutate({ shopifyVariantId: shopify.id, acumaticaProductId: acumatica.id });
      }}
      className="gap-4"
    >
      <ProductPicker
        label="Shopify Product"
        choices={shopifyChoices}
        total={shopifyList.data?.shopifyTotal ?? 0}
        value={shopify}
        onChange={setShopify}
        onSearchChange={setShopifySearch}
        loading={shopifyList.isPending}
        searching={shopifyList.isPlaceholderData}
        disabled={save.isPending}
      />
      <ProductPicker
        label="Acumatica Product"
        choices={acumaticaChoices}
        total={acumaticaList.data?.acumaticaTotal ?? 0}
        value={acumatica}
        onChange={setAcumatica}
        onSearchChange={setAcumaticaSearch}
        loading={acumaticaList.isPending}
        searching={acumaticaList.isPlaceholderData}
        disabled={save.isPending}
      />
      {listError ? (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(listError, MESSAGES.mapping.fetchUnmappedFailed)}
        </p>
      ) : null}
    </FormDialog>
  );
}

/** The first page of unmapped products matching a pick list's search. */
function pickerRequest(search: string): UnmappedRequest {
  return { limit: PICKER_PAGE_SIZE, shopifyOffset: 0, acumaticaOffset: 0, search, sortDirection: "desc" };
}
