/** Shopify ids travel as GIDs (`gid://shopify/ProductVariant/1`); a bare number is accepted and wrapped. */
export function toGid(type: string, id: string): string {
  return id.startsWith("gid://") ? id : `gid://shopify/${type}/${id}`;
}

/** Money is a decimal string ("19.99"); the engine compares whole cents. */
export function moneyToCents(value: unknown): number | null {
  if (value === null || value === undefined || value === "") return null;
  const number = Number(value);
  return Number.isFinite(number) ? Math.round(number * 100) : null;
}

export function centsToMoney(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const whole = Math.abs(cents);
  return `${sign}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, "0")}`;
}

export function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}
