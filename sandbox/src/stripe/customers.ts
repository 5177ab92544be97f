import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { StripeContext } from "./context.ts";
import { invalidRequest, noSuch } from "./errors.ts";
import { ID_LENGTHS, newId } from "./ids.ts";
import type { CustomerRecord, PaymentMethodRecord } from "./records.ts";
import { renderCustomer, renderPaymentMethod } from "./render.ts";

export function createCustomer(
  ctx: StripeContext,
  input: {
    email: string | null;
    name: string | null;
    description: string | null;
    metadata: Record<string, string>;
  },
): CustomerRecord {
  const customer: CustomerRecord = {
    id: newId("cus_", ID_LENGTHS.customer),
    created: ctx.now(),
    seq: ctx.store.nextSeq(),
    ...input,
    defaultPaymentMethod: null,
    invoicePrefix: newId("", 8).toUpperCase(),
    nextInvoiceSequence: 1,
  };
  ctx.store.customers.set(customer.id, customer);
  ctx.emit("customer.created", renderCustomer(customer));
  return customer;
}

interface TestCard {
  brand: string;
  last4: string;
  declines: boolean;
}

/** Stripe's test tokens / numbers the simulator understands; the `pm_card_*` ids map to the same cards. */
const TEST_CARDS: Record<string, TestCard> = {
  tok_visa: { brand: "visa", last4: "4242", declines: false },
  tok_mastercard: { brand: "mastercard", last4: "4444", declines: false },
  tok_amex: { brand: "amex", last4: "8431", declines: false },
  tok_chargeDeclined: { brand: "visa", last4: "0002", declines: true },
  tok_visa_chargeDeclined: { brand: "visa", last4: "0341", declines: true },
};
const DECLINING_NUMBERS = new Set(["4000000000000002", "4000000000000341", "4000000000009995"]);

function isTestToken(token: string): boolean {
  return token in TEST_CARDS;
}

/** Creates a card payment method from a test token (tok_visa...) or a raw test card number. */
export function createCardPaymentMethod(
  ctx: StripeContext,
  card: { token?: string; number?: string; expMonth?: number; expYear?: number },
  param = "card",
): PaymentMethodRecord {
  let details: TestCard;
  if (card.token !== undefined) {
    const known = TEST_CARDS[card.token];
    if (!known) throw noSuch("token", card.token, { param: `${param}[token]` });
    details = known;
  } else {
    const number = (card.number ?? "").replaceAll(/\s/g, "");
    if (!/^\d{13,19}$/.test(number)) {
      throw invalidRequest("Your card number is incorrect.", {
        param: `${param}[number]`,
        code: "incorrect_number",
      });
    }
    details = { brand: brandOf(number), last4: number.slice(-4), declines: DECLINING_NUMBERS.has(number) };
  }
  const created = ctx.now();
  const method: PaymentMethodRecord = {
    id: newId("pm_"),
    created,
    seq: ctx.store.nextSeq(),
    metadata: {},
    customer: null,
    ...details,
    expMonth: card.expMonth ?? 12,
    expYear: card.expYear ?? new Date(created * 1000).getUTCFullYear() + 3,
    fingerprint: newId("", 16),
  };
  ctx.store.paymentMethods.set(method.id, method);
  return method;
}

function brandOf(number: string): string {
  if (number.startsWith("4")) return "visa";
  if (/^5[1-5]/.test(number) || /^2[2-7]/.test(number)) return "mastercard";
  if (/^3[47]/.test(number)) return "amex";
  return "unknown";
}

/**
 * Finds a payment method by id. Stripe's test-mode shortcuts (`pm_card_visa`,
 * `pm_card_chargeDeclined`...) create a fresh payment method each time, as Stripe does.
 */
export function findPaymentMethod(
  ctx: StripeContext,
  id: string,
  { param, status = 400 }: { param: string; status?: ContentfulStatusCode },
): PaymentMethodRecord {
  const existing = ctx.store.paymentMethods.get(id);
  if (existing) return existing;
  const shortcut = id.startsWith("pm_card_") ? `tok_${id.slice("pm_card_".length)}` : undefined;
  if (shortcut && isTestToken(shortcut)) return createCardPaymentMethod(ctx, { token: shortcut });
  throw noSuch("PaymentMethod", id, { param, status });
}

export function attachPaymentMethod(
  ctx: StripeContext,
  method: PaymentMethodRecord,
  customer: CustomerRecord,
): void {
  if (method.customer === customer.id) return;
  if (method.customer !== null) {
    throw invalidRequest("The payment method you provided has already been attached to a customer.", {
      code: "payment_method_unexpected_state",
    });
  }
  method.customer = customer.id;
  ctx.emit("payment_method.attached", renderPaymentMethod(method));
}
