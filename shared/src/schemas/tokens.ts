import * as v from "valibot";
import { noControlCharacters } from "./common.ts";

/** Every personal API token starts with this, so secret scanners (and the edge) can tell one apart. */
export const PERSONAL_TOKEN_PREFIX = "sbk_";
/** Longest lifetime a token can be given; a token created without `expiresInDays` never expires. */
export const TOKEN_MAX_EXPIRY_DAYS = 3650;

export const TokenNameSchema = v.pipe(
  v.string("name is required"),
  v.trim(),
  v.nonEmpty("name is required"),
  v.maxLength(100, "name must be at most 100 characters"),
  noControlCharacters("name"),
);

/** Whole days from now; absent or null: the token never expires. */
export const TokenExpirySchema = v.nullish(
  v.pipe(
    v.number("expiresInDays must be a whole number of days"),
    v.integer("expiresInDays must be a whole number of days"),
    v.minValue(1, "expiresInDays must be at least 1"),
    v.maxValue(TOKEN_MAX_EXPIRY_DAYS, `expiresInDays must be at most ${TOKEN_MAX_EXPIRY_DAYS}`),
  ),
);

export const CreateTokenInputSchema = v.object({
  name: v.optional(TokenNameSchema, ""),
  expiresInDays: TokenExpirySchema,
});
export type CreateTokenInput = v.InferOutput<typeof CreateTokenInputSchema>;

/** A token as listed: never its secret, only the short prefix it starts with. */
export const PersonalTokenSchema = v.object({
  _id: v.string(),
  name: v.string(),
  prefix: v.string(),
  createdAt: v.string(),
  /** Null: never expires. */
  expiresAt: v.nullable(v.string()),
  /** Null: never used. Written at most once a minute per token. */
  lastUsedAt: v.nullable(v.string()),
});
export type PersonalToken = v.InferOutput<typeof PersonalTokenSchema>;

/** The answer to creating a token: the only time its secret is ever shown. */
export const CreatedTokenSchema = v.object({
  token: v.string(),
  _id: v.string(),
  name: v.string(),
  prefix: v.string(),
  createdAt: v.string(),
  expiresAt: v.nullable(v.string()),
});
export type CreatedToken = v.InferOutput<typeof CreatedTokenSchema>;

export const PersonalTokenListSchema = v.array(PersonalTokenSchema);
