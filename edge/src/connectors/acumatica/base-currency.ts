import type { AcumaticaApi } from "./session.ts";

/**
 * The base currency of the company the session signed in to (the `Company` entity's
 * BaseCurrencyID): the currency DefaultPrice and MSRP are kept in. Null when the instance does not
 * say, so a caller never refuses prices on a guess.
 */
export async function readBaseCurrency(api: AcumaticaApi): Promise<string | null> {
  const rows = await api.get<unknown>("Company", { $select: "CompanyID,BaseCurrencyID" });
  if (!Array.isArray(rows)) return null;
  for (const row of rows) {
    const value = (row as { BaseCurrencyID?: { value?: unknown } } | null)?.BaseCurrencyID?.value;
    if (typeof value === "string" && value.trim() !== "") return value.trim().toUpperCase();
  }
  return null;
}

/** The same, null when the instance cannot tell (an endpoint without the Company entity). */
export async function readBaseCurrencyIfKnown(api: AcumaticaApi): Promise<string | null> {
  try {
    return await readBaseCurrency(api);
  } catch {
    return null;
  }
}
