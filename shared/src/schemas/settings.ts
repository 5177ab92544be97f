import * as v from "valibot";
import { ACUMATICA_QUANTITY_FIELDS, SHOPIFY_QUANTITY_FIELDS } from "../constants.ts";
import { MESSAGES, safetyLimitRule } from "../messages.ts";
import { LocationFeedSchema } from "./locations.ts";

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
  locationMapping: v.pipe(
    v.object({ locations: v.array(LocationFeedSchema) }),
    v.description(
      "Which Acumatica warehouses feed each Shopify location. Until one is saved: the primary location fed by every warehouse (empty while the store's locations are not known yet).",
    ),
  ),
});
export type Settings = v.InferOutput<typeof SettingsSchema>;

export const QuantityMappingResultSchema = v.object({ quantityMapping: QuantityMappingSchema });
export const PriceMappingResultSchema = v.object({
  priceMapping: v.object({ syncPrice: v.boolean(), syncMsrp: v.boolean() }),
});

/**
 * Safety limits (Settings > Mapping): a run that would move a price by more than
 * `maxPriceChangePercent` or set more than `maxZeroedPercent` of its quantities to zero is held for
 * review instead of written. Whole percentages; 0 turns a limit off. A price may rise tenfold
 * (1000 %) before the limit is meaningless; a share cannot pass 100 %.
 */
export const SAFETY_LIMIT_MAX = { maxPriceChangePercent: 1_000, maxZeroedPercent: 100 } as const;
export const DEFAULT_SAFETY_LIMITS = { maxPriceChangePercent: 50, maxZeroedPercent: 20 } as const;

function percentLimit(field: keyof typeof SAFETY_LIMIT_MAX) {
  const rule = safetyLimitRule(field, SAFETY_LIMIT_MAX[field]);
  return v.pipe(
    v.number(rule),
    v.integer(rule),
    v.minValue(0, rule),
    v.maxValue(SAFETY_LIMIT_MAX[field], rule),
  );
}

export const SafetyLimitsSchema = v.object({
  maxPriceChangePercent: percentLimit("maxPriceChangePercent"),
  maxZeroedPercent: percentLimit("maxZeroedPercent"),
});
export type SafetyLimits = v.InferOutput<typeof SafetyLimitsSchema>;
