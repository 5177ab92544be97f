import * as v from "valibot";
import { ACUMATICA_API_VERSIONS, ACUMATICA_MAX_SESSIONS, SHOPIFY_API_VERSIONS } from "../constants.ts";
import { noControlCharacters } from "./common.ts";

function required(label: string, max = 200) {
  return v.optional(
    v.pipe(
      v.string(`${label} is required`),
      v.trim(),
      v.nonEmpty(`${label} is required`),
      v.maxLength(max, `${label} must be at most ${max} characters`),
      noControlCharacters(label),
    ),
    "",
  );
}

/** A secret on save: blank keeps the saved one (the answer never carries it back). */
function secret(label: string) {
  return v.optional(
    v.pipe(v.string(`${label} must be text`), v.maxLength(500, `${label} must be at most 500 characters`)),
    "",
  );
}

export const MAX_SESSIONS_RULE = `Max sessions must be a whole number from ${ACUMATICA_MAX_SESSIONS.min} to ${ACUMATICA_MAX_SESSIONS.max}`;

/** The connection's share of the licence's API-user seats; left out, the default. */
const MaxSessionsSchema = v.optional(
  v.pipe(
    v.number(MAX_SESSIONS_RULE),
    v.integer(MAX_SESSIONS_RULE),
    v.minValue(ACUMATICA_MAX_SESSIONS.min, MAX_SESSIONS_RULE),
    v.maxValue(ACUMATICA_MAX_SESSIONS.max, MAX_SESSIONS_RULE),
  ),
  ACUMATICA_MAX_SESSIONS.default,
);

export const AcumaticaConnectionInputSchema = v.object({
  name: required("Name"),
  apiVersion: v.picklist(
    ACUMATICA_API_VERSIONS,
    `API version must be one of ${ACUMATICA_API_VERSIONS.join(", ")}`,
  ),
  instanceUri: v.pipe(
    required("Instance URL", 500),
    v.url("Instance URL must be a valid URL (https://...)"),
    // API paths are appended to it: a fragment would swallow them, and user-info (or an @ elsewhere,
    // as in `https://a.example\@b.example`) makes the host differ from what the user reads.
    v.check(
      (value) => !/[@#]|%(?:40|23)/i.test(value),
      "Instance URL must not contain a user name, password or fragment (no @ or #, also not as %40 or %23)",
    ),
  ),
  endpointName: required("Endpoint name", 100),
  username: required("Username"),
  password: secret("Password"),
  company: required("Company"),
  maxSessions: MaxSessionsSchema,
});
export type AcumaticaConnectionInput = v.InferOutput<typeof AcumaticaConnectionInputSchema>;

export const ShopifyConnectionInputSchema = v.object({
  name: required("Name"),
  apiVersion: v.picklist(
    SHOPIFY_API_VERSIONS,
    `API version must be one of ${SHOPIFY_API_VERSIONS.join(", ")}`,
  ),
  storeName: required("Store name", 100),
  accessToken: secret("Access token"),
});
export type ShopifyConnectionInput = v.InferOutput<typeof ShopifyConnectionInputSchema>;

const ConnectionStatusEntries = {
  isVerified: v.boolean(),
  lastTestedAt: v.nullable(v.string()),
  lastTestError: v.nullable(v.string()),
};

/** The Acumatica connection as the server answers it: the password never leaves the server. */
export const AcumaticaConnectionSchema = v.object({
  name: v.string(),
  apiVersion: v.string(),
  instanceUri: v.string(),
  endpointName: v.string(),
  username: v.string(),
  company: v.string(),
  /** At most this many Acumatica sessions at once for this connection (licence seats). */
  maxSessions: v.number(),
  passwordSet: v.boolean(),
  /** The company's base currency as the last successful test read it (prices are in it). */
  baseCurrency: v.nullable(v.string()),
  ...ConnectionStatusEntries,
});
export type AcumaticaConnection = v.InferOutput<typeof AcumaticaConnectionSchema>;

export const ShopifyConnectionSchema = v.object({
  name: v.string(),
  apiVersion: v.string(),
  storeName: v.string(),
  accessTokenSet: v.boolean(),
  /** The version Shopify said it served on the last successful test (expired versions fall forward). */
  servedApiVersion: v.nullable(v.string()),
  /** What Shopify's `X-Shopify-API-Deprecated-Reason` last said for the served version, if anything. */
  deprecationNotice: v.nullable(v.string()),
  /** The store's currency as the last successful test read it. */
  currencyCode: v.nullable(v.string()),
  ...ConnectionStatusEntries,
});
export type ShopifyConnection = v.InferOutput<typeof ShopifyConnectionSchema>;

export const ConnectionsSchema = v.object({
  acumaticaConnection: v.nullable(AcumaticaConnectionSchema),
  shopifyConnection: v.nullable(ShopifyConnectionSchema),
});
export type Connections = v.InferOutput<typeof ConnectionsSchema>;
