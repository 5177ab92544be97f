/** Prices are shown in dollars with two decimals; '-' where there is no value. */
export function formatMoney(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "-";
  return value.toFixed(2);
}

/** Converts a decimal money value to whole cents without float drift (19.99 -> 1999). */
export function toCents(value: number): number {
  return Math.round(value * 100);
}

export function fromCents(cents: number): number {
  return cents / 100;
}
