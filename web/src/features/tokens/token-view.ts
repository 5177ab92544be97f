import type { PersonalToken } from "@stockbridge/shared";

/** The lifetimes the create dialog offers; "never" sends no `expiresInDays`. */
export const EXPIRY_CHOICES = [
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
  { value: "never", label: "No expiry" },
] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]["value"];
export const DEFAULT_EXPIRY: ExpiryChoice = "90";

/** `expiresInDays` for a choice: a whole number of days, or undefined for a token that never expires. */
export function expiryDays(choice: ExpiryChoice): number | undefined {
  return choice === "never" ? undefined : Number(choice);
}

/** `2026-11-21T10:00:00Z` -> `Nov 21, 2026, 10:00 AM` in the browser's zone; '-' when unreadable. */
export function formatTokenDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "-";
  return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }).format(date);
}

/** 'Never' for a token not used yet. */
export function describeLastUse(token: Pick<PersonalToken, "lastUsedAt">): string {
  return token.lastUsedAt ? formatTokenDate(token.lastUsedAt) : "Never";
}

/** 'Never', the date it expires, or 'Expired <date>' once past (the server refuses it then). */
export function describeExpiry(token: Pick<PersonalToken, "expiresAt">, now: Date): string {
  if (!token.expiresAt) return "Never";
  const text = formatTokenDate(token.expiresAt);
  return new Date(token.expiresAt).getTime() <= now.getTime() ? `Expired ${text}` : text;
}
