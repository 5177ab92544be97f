import { AcumaticaError } from "./failures.ts";
import type { AcumaticaApi } from "./session.ts";

/**
 * The base currency of the company the session signed in to (the `Company` entity's
 * BaseCurrencyID): the currency DefaultPrice and MSRP are kept in. Null when the instance does not
 * say, so a caller never refuses prices on a guess.
 */
async function readBaseCurrency(api: AcumaticaApi): Promise<string | null> {
  const rows = await api.get<unknown>("Company", { $select: "CompanyID,BaseCurrencyID" });
  if (!Array.isArray(rows)) return null;
  for (const row of rows) {
    const value = (row as { BaseCurrencyID?: { value?: unknown } } | null)?.BaseCurrencyID?.value;
    if (typeof value === "string" && value.trim() !== "") return value.trim().toUpperCase();
  }
  return null;
}

/**
 * The same, null when the endpoint has no Company entity (its 404): then the instance cannot tell.
 * Any other failure (the licence's 429, a timeout) fails the read like every other ERP call, so a
 * run never skips the currency check because of a passing fault.
 */
export async function readBaseCurrencyIfKnown(api: AcumaticaApi): Promise<string | null> {
  try {
    return await readBaseCurrency(api);
  } catch (error) {
    if (error instanceof AcumaticaError && error.kind === "not-found") return null;
    throw error;
  }
}
