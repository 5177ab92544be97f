import * as v from "valibot";
import { PASSWORD_MIN_LENGTH } from "../constants.ts";
import { SubscriptionSchema } from "./billing.ts";
import { noControlCharacters } from "./common.ts";
import { AcumaticaConnectionSchema, ShopifyConnectionSchema } from "./connections.ts";

/** The form rules of spec section 5, used by the forms (live and on submit) and by the server alike. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const EmailSchema = v.pipe(
  v.string("Email is required"),
  v.trim(),
  v.nonEmpty("Email is required"),
  v.maxLength(254, "Email must be at most 254 characters"),
  noControlCharacters("Email"),
  v.regex(EMAIL_PATTERN, "Invalid email address"),
);

export const LoginPasswordSchema = v.pipe(
  v.string("Password is required"),
  v.nonEmpty("Password is required"),
  v.maxLength(128, "Password must be at most 128 characters long"),
);

export const NameSchema = v.pipe(
  v.string("Name is required"),
  v.trim(),
  v.nonEmpty("Name is required"),
  v.regex(/^[\p{L} ]+$/u, "Name should only contain letters and spaces"),
  v.maxLength(100, "Name must be at most 100 characters"),
);

export const NewPasswordSchema = v.pipe(
  v.string("Password is required"),
  v.nonEmpty("Password is required"),
  v.minLength(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`),
  v.regex(/[a-z]/, "Password must contain at least one lowercase letter"),
  v.regex(/[A-Z]/, "Password must contain at least one uppercase letter"),
  v.regex(/[0-9]/, "Password must contain at least one number"),
  v.maxLength(128, "Password must be at most 128 characters long"),
);

/** A missing field reads as empty, so it fails with the field's own "is required" message. */
function field<S extends v.GenericSchema<string, unknown>>(schema: S) {
  return v.optional(schema, "");
}

export const LoginInputSchema = v.object({ email: field(EmailSchema), password: field(LoginPasswordSchema) });
export type LoginInput = v.InferOutput<typeof LoginInputSchema>;

export const RegisterInputSchema = v.object({
  name: field(NameSchema),
  email: field(EmailSchema),
  password: field(NewPasswordSchema),
});
export type RegisterInput = v.InferOutput<typeof RegisterInputSchema>;

export const RefreshInputSchema = v.object({
  token: field(
    v.pipe(
      v.string("No refresh token available"),
      v.nonEmpty("No refresh token available"),
      v.maxLength(4096, "token is too long"),
    ),
  ),
});
export type RefreshInput = v.InferOutput<typeof RefreshInputSchema>;

export const UserSchema = v.object({
  _id: v.string(),
  name: v.string(),
  email: v.string(),
  profileImage: v.nullable(v.string()),
  subscription: v.nullable(SubscriptionSchema),
  acumaticaConnection: v.nullable(AcumaticaConnectionSchema),
  shopifyConnection: v.nullable(ShopifyConnectionSchema),
});
export type User = v.InferOutput<typeof UserSchema>;

export const AuthResultSchema = v.object({ user: UserSchema, token: v.string() });
export type AuthResult = v.InferOutput<typeof AuthResultSchema>;

export const MeSchema = v.object({ user: UserSchema });

export const ChangePasswordInputSchema = v.object({
  currentPassword: field(LoginPasswordSchema),
  newPassword: field(NewPasswordSchema),
});
export type ChangePasswordInput = v.InferOutput<typeof ChangePasswordInputSchema>;
