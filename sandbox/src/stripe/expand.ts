import { invalidRequest } from "./errors.ts";
import type { StripeStore } from "./records.ts";
import {
  renderCheckoutSession,
  renderCustomer,
  renderPaymentMethod,
  renderPrice,
  renderProduct,
  type StripeObject,
} from "./render.ts";
import { renderInvoice } from "./render-invoice.ts";
import { renderSubscription } from "./render-subscription.ts";

/** Finds and renders any object by id (what `expand` resolves references with). */
function renderById(store: StripeStore, id: string): StripeObject | undefined {
  const product = store.products.get(id);
  if (product) return renderProduct(product);
  const price = store.prices.get(id);
  if (price) return renderPrice(price);
  const customer = store.customers.get(id);
  if (customer) return renderCustomer(customer);
  const method = store.paymentMethods.get(id);
  if (method) return renderPaymentMethod(method);
  const session = store.sessions.get(id);
  if (session) return renderCheckoutSession(session, store);
  const subscription = store.subscriptions.get(id);
  if (subscription) return renderSubscription(subscription, store);
  const invoice = store.invoices.get(id);
  if (invoice) return renderInvoice(invoice, store);
  return undefined;
}

/**
 * Applies `expand[]` paths the way Stripe does: each dotted segment names a property; an id
 * string there is replaced by the object; on a list, `data.x` expands `x` on every entry. Naming
 * a property the object does not have is an error, a null reference stays null.
 */
export function applyExpand(
  store: StripeStore,
  object: StripeObject,
  paths: readonly string[] = [],
): StripeObject {
  for (const [index, path] of paths.entries()) {
    const segments = path.split(".");
    if (segments.length > 4) {
      throw invalidRequest(`You cannot expand more than 4 levels of a property. Property: ${path}`, {
        param: `expand[${index}]`,
      });
    }
    expandInto(store, object, { segments, path, index });
  }
  return object;
}

function expandInto(
  store: StripeStore,
  target: unknown,
  { segments, path, index }: { segments: string[]; path: string; index: number },
): void {
  if (Array.isArray(target)) {
    for (const entry of target) expandInto(store, entry, { segments, path, index });
    return;
  }
  if (!isObject(target)) return;
  const [key, ...rest] = segments;
  if (key === undefined) return;
  if (!(key in target)) {
    throw invalidRequest(`This property cannot be expanded (${path}).`, { param: `expand[${index}]` });
  }
  let value = target[key];
  if (typeof value === "string" && key !== "object" && key !== "id") {
    const resolved = renderById(store, value);
    if (!resolved)
      throw invalidRequest(`This property cannot be expanded (${path}).`, { param: `expand[${index}]` });
    value = resolved;
    target[key] = resolved;
  }
  if (rest.length > 0) expandInto(store, value, { segments: rest, path, index });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
