import {
  ACUMATICA_API_VERSIONS,
  ACUMATICA_MAX_SESSIONS,
  type AcumaticaConnection,
  type AcumaticaConnectionInputSchema,
  DEFAULT_ACUMATICA_API_VERSION,
  DEFAULT_SHOPIFY_API_VERSION,
  priceCurrencyWarning,
  type SandboxConnection,
  SHOPIFY_API_VERSIONS,
  type ShopifyConnection,
  type ShopifyConnectionInputSchema,
} from "@stockbridge/shared";
import type * as v from "valibot";

/** The forms hold text only; the select values are narrowed back to the contract's versions on save. */
export type AcumaticaFormValues = Record<keyof v.InferInput<typeof AcumaticaConnectionInputSchema>, string>;
export type ShopifyFormValues = Record<keyof v.InferInput<typeof ShopifyConnectionInputSchema>, string>;
export type AcumaticaApiVersion = (typeof ACUMATICA_API_VERSIONS)[number];
export type ShopifyApiVersion = (typeof SHOPIFY_API_VERSIONS)[number];

export const SAVED_SECRET_PLACEHOLDER = "Saved — leave blank to keep";

/** The form of a saved connection (or the empty form with the default version); secrets start blank. */
export function acumaticaFormFrom(connection: AcumaticaConnection | null): AcumaticaFormValues {
  return {
    name: connection?.name ?? "",
    apiVersion: acumaticaVersion(connection?.apiVersion),
    instanceUri: connection?.instanceUri ?? "",
    endpointName: connection?.endpointName ?? "",
    username: connection?.username ?? "",
    password: "",
    company: connection?.company ?? "",
    maxSessions: String(connection?.maxSessions ?? ACUMATICA_MAX_SESSIONS.default),
  };
}

export function shopifyFormFrom(connection: ShopifyConnection | null): ShopifyFormValues {
  return {
    name: connection?.name ?? "",
    apiVersion: shopifyVersion(connection?.apiVersion),
    storeName: connection?.storeName ?? "",
    accessToken: "",
  };
}

export function acumaticaFormFromSandbox(demo: SandboxConnection["acumatica"]): AcumaticaFormValues {
  return {
    name: demo.name,
    apiVersion: acumaticaVersion(demo.apiVersion),
    instanceUri: demo.instanceUri,
    endpointName: demo.endpointName,
    username: demo.username,
    password: demo.password,
    company: demo.company,
    maxSessions: String(ACUMATICA_MAX_SESSIONS.default),
  };
}

export function shopifyFormFromSandbox(demo: SandboxConnection["shopify"]): ShopifyFormValues {
  return {
    name: demo.name,
    apiVersion: shopifyVersion(demo.apiVersion),
    storeName: demo.storeName,
    accessToken: demo.accessToken,
  };
}

/**
 * The save body: text trimmed (the password is sent as typed), a blank secret keeps the saved one;
 * max sessions as a number (the form validated it as a whole number first).
 */
export function acumaticaInput(values: AcumaticaFormValues) {
  return {
    name: values.name.trim(),
    apiVersion: acumaticaVersion(values.apiVersion),
    instanceUri: values.instanceUri.trim(),
    endpointName: values.endpointName.trim(),
    username: values.username.trim(),
    password: values.password,
    company: values.company.trim(),
    maxSessions: Number(values.maxSessions.trim()),
  };
}

export function shopifyInput(values: ShopifyFormValues) {
  return {
    name: values.name.trim(),
    apiVersion: shopifyVersion(values.apiVersion),
    storeName: values.storeName.trim(),
    accessToken: values.accessToken.trim(),
  };
}

/** A version the select offers; anything else (an old saved value) reads as the default. */
export function acumaticaVersion(value: string | null | undefined): AcumaticaApiVersion {
  return ACUMATICA_API_VERSIONS.find((version) => version === value) ?? DEFAULT_ACUMATICA_API_VERSION;
}

export function shopifyVersion(value: string | null | undefined): ShopifyApiVersion {
  return SHOPIFY_API_VERSIONS.find((version) => version === value) ?? DEFAULT_SHOPIFY_API_VERSION;
}

/**
 * What the card says about the version Shopify served on the last test: expired versions fall
 * forward to the oldest supported one, so the served version can differ from the chosen one.
 */
export function servedVersionNote(connection: Pick<ShopifyConnection, "apiVersion" | "servedApiVersion">): {
  served: string;
  fellForward: boolean;
} | null {
  if (!connection.servedApiVersion) return null;
  return {
    served: connection.servedApiVersion,
    fellForward: connection.servedApiVersion !== connection.apiVersion,
  };
}

/**
 * Settings' warning that a run will send no prices: the currencies both connection tests read
 * differ (each is known only after a successful test).
 */
export function currencyWarning(
  acumatica: Pick<AcumaticaConnection, "baseCurrency"> | null,
  shopify: Pick<ShopifyConnection, "currencyCode"> | null,
): string | null {
  const erp = acumatica?.baseCurrency ?? null;
  const shop = shopify?.currencyCode ?? null;
  if (!erp || !shop || erp === shop) return null;
  return priceCurrencyWarning({ shopify: shop, acumatica: erp });
}
