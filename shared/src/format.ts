/**
 * Prices are shown with two decimals, after the currency's symbol when the currency is known
 * ('$39.86' for USD, '€39.86' for EUR); '-' where there is no value.
 */
export function formatMoney(value: number | null | undefined, currencyCode?: string | null): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "-";
  if (!currencyCode) return value.toFixed(2);
  try {
    return new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: currencyCode,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(value);
  } catch {
    // A code Intl refuses (not three letters) is shown as the bare amount rather than failing the row.
    return value.toFixed(2);
  }
}

/** Converts a decimal money value to whole cents without float drift (19.99 -> 1999). */
export function toCents(value: number): number {
  return Math.round(value * 100);
}

export function fromCents(cents: number): number {
  return cents / 100;
}
