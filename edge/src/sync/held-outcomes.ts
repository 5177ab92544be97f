import { changedSinceHeld, formatMoney } from "@stockbridge/shared";
import type { QuantityOutcome } from "../connectors/shopify/quantities.ts";
import type { HeldResult, StoredHeldChange } from "../history/held-repo.ts";
import type { ShopifyValues } from "./plan.ts";

/** What approving did with one change of a held plan, and why when it was not written. */
export interface Outcome {
  result: HeldResult;
  note: string | null;
}

export const MAPPING_GONE = "The mapping was deleted or changed since the run was held; not written";
const VARIANT_GONE = "The variant no longer exists in Shopify; not written";
const NOT_STOCKED_NOW = "The variant is no longer stocked at this location; not written";

/**
 * What to do with one change before any write: null = write it; otherwise why not. Shopify still
 * holding the plan's old value is the only case that writes.
 */
export function decide(change: StoredHeldChange, values: ShopifyValues | null): Outcome | null {
  if (!change.acumaticaId) return { result: "failed", note: MAPPING_GONE };
  if (!values) return { result: "failed", note: VARIANT_GONE };
  const current = currentOf(change, values);
  if (current === undefined) return { result: "failed", note: NOT_STOCKED_NOW };
  if (current === change.to) return { result: "unchanged", note: null };
  if (current === change.from) return null;
  return {
    result: "changed",
    note: changedSinceHeld({
      field: change.field,
      planned: shown(change, change.from),
      now: shown(change, current),
    }),
  };
}

/** The field's value in Shopify now; undefined when the variant has no level at the change's location. */
function currentOf(change: StoredHeldChange, values: ShopifyValues): number | null | undefined {
  if (change.field === "price") return values.priceCents;
  if (change.field === "compareAtPrice") return values.compareAtCents;
  if (values.locationId !== change.locationId) return undefined;
  return change.quantityName === "on_hand" ? values.onHand : values.available;
}

export function quantityOutcome(change: StoredHeldChange, outcome: QuantityOutcome | undefined): Outcome {
  if (!outcome) return notWritten();
  if (outcome.kind === "written") return { result: "written", note: null };
  if (outcome.kind === "changed")
    return {
      result: "changed",
      note: changedSinceHeld({
        field: "quantity",
        planned: shown(change, change.from),
        now: shown(change, outcome.current),
      }),
    };
  return { result: "failed", note: outcome.kind === "failed" ? outcome.error : outcome.reason };
}

export function notWritten(): Outcome {
  return { result: "failed", note: "not written" };
}

/** A value as the review shows it: prices in dollars ("none" for no compare-at price), quantities in units. */
function shown(change: StoredHeldChange, value: number | null): string {
  if (change.field === "quantity") return String(value ?? 0);
  return value === null ? "none" : formatMoney(value / 100);
}

/** Shopify's values once the written changes landed (what the cached catalog row should show). */
export function afterWrites(
  values: ShopifyValues,
  changes: StoredHeldChange[],
  outcomes: Map<number, Outcome>,
): ShopifyValues {
  let after = values;
  for (const change of changes) {
    if (outcomes.get(change.seq)?.result !== "written") continue;
    if (change.field === "price") after = { ...after, priceCents: change.to ?? after.priceCents };
    else if (change.field === "compareAtPrice") after = { ...after, compareAtCents: change.to };
    else {
      const delta = (change.to ?? 0) - (change.from ?? 0);
      after =
        change.quantityName === "on_hand"
          ? { ...after, onHand: change.to, available: (after.available ?? 0) + delta }
          : { ...after, available: change.to, onHand: (after.onHand ?? 0) + delta };
    }
  }
  return after;
}
