import * as v from "valibot";
import { MESSAGES, safetyLimitFormRule } from "./messages.ts";
import { EmailSchema, LoginPasswordSchema, NameSchema, NewPasswordSchema } from "./schemas/auth.ts";
import { AcumaticaConnectionInputSchema, ShopifyConnectionInputSchema } from "./schemas/connections.ts";
import { SAFETY_LIMIT_MAX, SafetyLimitsSchema } from "./schemas/settings.ts";

/**
 * The validation rules of spec section 5 as pure functions. Each returns the first failing rule's
 * message, in the spec's words, or undefined. The server's input schemas are the same valibot
 * schemas, so a form and the API can never disagree.
 */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

function firstIssue(schema: v.GenericSchema, value: unknown): string | undefined {
  const result = v.safeParse(schema, value, { abortEarly: true });
  return result.success ? undefined : result.issues[0]?.message;
}

export function validateEmail(email: string): string | undefined {
  return firstIssue(EmailSchema, email);
}

function validateLoginPassword(password: string): string | undefined {
  return firstIssue(LoginPasswordSchema, password);
}

export function validateName(name: string): string | undefined {
  return firstIssue(NameSchema, name);
}

export function validateNewPassword(password: string): string | undefined {
  return firstIssue(NewPasswordSchema, password);
}

export function validateConfirmPassword(confirmPassword: string, password: string): string | undefined {
  if (!confirmPassword) return "Please confirm your password";
  if (confirmPassword !== password) return "Passwords do not match";
  return undefined;
}

export type LoginForm = { email: string; password: string };
export function validateLoginForm(form: LoginForm): FieldErrors<keyof LoginForm> {
  return compact({ email: validateEmail(form.email), password: validateLoginPassword(form.password) });
}

export type RegisterForm = { name: string; email: string; password: string; confirmPassword: string };
export function validateRegisterForm(form: RegisterForm): FieldErrors<keyof RegisterForm> {
  return compact({
    name: validateName(form.name),
    email: validateEmail(form.email),
    password: validateNewPassword(form.password),
    confirmPassword: validateConfirmPassword(form.confirmPassword, form.password),
  });
}

/** Connection forms: every field required (a saved secret may stay blank to keep it). */
export function validateAcumaticaForm(
  form: Record<keyof v.InferInput<typeof AcumaticaConnectionInputSchema>, string>,
  options: { passwordSaved: boolean },
): FieldErrors<keyof typeof form> {
  // The form holds text; the API takes a number: whole-number text is read as one, anything else
  // stays text and fails the rule with its message.
  const maxSessions = /^\s*\d+\s*$/.test(form.maxSessions) ? Number(form.maxSessions) : form.maxSessions;
  const errors = objectErrors(AcumaticaConnectionInputSchema, { ...form, maxSessions });
  if (!options.passwordSaved && !form.password) errors.password = "Password is required";
  return errors;
}

export function validateShopifyForm(
  form: Record<keyof v.InferInput<typeof ShopifyConnectionInputSchema>, string>,
  options: { accessTokenSaved: boolean },
): FieldErrors<keyof typeof form> {
  const errors = objectErrors(ShopifyConnectionInputSchema, form);
  if (!options.accessTokenSaved && !form.accessToken) errors.accessToken = "Access token is required";
  return errors;
}

export function validatePriceMapping(mapping: { syncPrice: boolean; syncMsrp: boolean }): string | undefined {
  return mapping.syncPrice || mapping.syncMsrp ? undefined : MESSAGES.settings.atLeastOnePrice;
}

export function validateSyncOptions(options: { price: boolean; quantity: boolean }): string | undefined {
  return options.price || options.quantity ? undefined : MESSAGES.mapping.selectSyncOption;
}

export function canSubmitManualMapping(selection: {
  shopifyVariantId?: string | null;
  acumaticaProductId?: string | null;
}): boolean {
  return Boolean(selection.shopifyVariantId && selection.acumaticaProductId);
}

/**
 * The Safety limits form: whole-number text is read as a number, anything else fails the API's
 * rule, said under the field's label (the API's own text names the JSON field).
 */
export function validateSafetyLimitsForm(form: {
  maxPriceChangePercent: string;
  maxZeroedPercent: string;
}): FieldErrors<keyof typeof form> {
  const read = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : text);
  const errors = objectErrors(SafetyLimitsSchema, {
    maxPriceChangePercent: read(form.maxPriceChangePercent),
    maxZeroedPercent: read(form.maxZeroedPercent),
  });
  const shown: FieldErrors<keyof typeof form> = {};
  for (const field of ["maxPriceChangePercent", "maxZeroedPercent"] as const)
    if (errors[field]) shown[field] = safetyLimitFormRule(SAFETY_LIMIT_MAX[field]);
  return shown;
}

/** Typed confirmation: an exact match of the required name. */
export function matchesTypedConfirmation(typed: string, required: string): boolean {
  return typed === required;
}

function objectErrors<F extends string>(
  schema: v.GenericSchema,
  form: Record<F, string | number>,
): FieldErrors<F> {
  const result = v.safeParse(schema, form);
  const errors: FieldErrors<F> = {};
  if (result.success) return errors;
  for (const issue of result.issues) {
    const key = issue.path?.[0]?.key;
    if (typeof key === "string" && !(key in errors)) errors[key as F] = issue.message;
  }
  return errors;
}

function compact<F extends string>(errors: Record<F, string | undefined>): FieldErrors<F> {
  const result: FieldErrors<F> = {};
  for (const [key, message] of Object.entries(errors) as [F, string | undefined][]) {
    if (message) result[key] = message;
  }
  return result;
}
