import * as v from "valibot";
import { ACUMATICA_QUANTITY_FIELDS, SHOPIFY_QUANTITY_FIELDS } from "../constants.ts";
import { MESSAGES } from "../messages.ts";

export const QuantityMappingSchema = v.object({
  acumaticaQuantity: v.picklist(
    ACUMATICA_QUANTITY_FIELDS,
    `acumaticaQuantity must be one of ${ACUMATICA_QUANTITY_FIELDS.join(", ")}`,
  ),
  shopifyQuantity: v.picklist(
    SHOPIFY_QUANTITY_FIELDS,
    `shopifyQuantity must be one of ${SHOPIFY_QUANTITY_FIELDS.join(", ")}`,
  ),
});
export type QuantityMapping = v.InferOutput<typeof QuantityMappingSchema>;

export const PriceMappingSchema = v.pipe(
  v.object({
    syncPrice: v.boolean("syncPrice must be true or false"),
    syncMsrp: v.boolean("syncMsrp must be true or false"),
  }),
  v.check((mapping) => mapping.syncPrice || mapping.syncMsrp, MESSAGES.settings.atLeastOnePrice),
);
export type PriceMapping = v.InferOutput<typeof PriceMappingSchema>;

export const SettingsSchema = v.object({
  quantityMapping: QuantityMappingSchema,
  priceMapping: v.object({ syncPrice: v.boolean(), syncMsrp: v.boolean() }),
});
export type Settings = v.InferOutput<typeof SettingsSchema>;

export const QuantityMappingResultSchema = v.object({ quantityMapping: QuantityMappingSchema });
export const PriceMappingResultSchema = v.object({
  priceMapping: v.object({ syncPrice: v.boolean(), syncMsrp: v.boolean() }),
});
