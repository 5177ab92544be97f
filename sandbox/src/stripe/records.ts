import type { Interval } from "./periods.ts";

/**
 * The simulator's state: one record per Stripe object, holding only what varies. `render.ts`
 * turns records into the full JSON objects the API answers. `seq` breaks ties in `created` so
 * lists come back newest first in a stable order, as Stripe's do.
 */
interface Base {
  id: string;
  created: number;
  seq: number;
  metadata: Record<string, string>;
}

export interface ProductRecord extends Base {
  name: string;
  description: string | null;
  active: boolean;
  features: string[];
  defaultPrice: string | null;
  updated: number;
}

export interface PriceRecord extends Base {
  product: string;
  active: boolean;
  currency: string;
  unitAmount: number;
  interval: Interval;
  intervalCount: number;
  trialPeriodDays: number | null;
  lookupKey: string | null;
  nickname: string | null;
}

export interface CustomerRecord extends Base {
  email: string | null;
  name: string | null;
  description: string | null;
  defaultPaymentMethod: string | null;
  invoicePrefix: string;
  nextInvoiceSequence: number;
}

export interface PaymentMethodRecord extends Base {
  customer: string | null;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  /** Test cards such as tok_chargeDeclined attach fine but fail every charge. */
  declines: boolean;
  fingerprint: string;
}

export interface LineItemInput {
  price: string;
  quantity: number;
}

export interface CheckoutSessionRecord extends Base {
  expiresAt: number;
  customer: string | null;
  customerEmail: string | null;
  customerDetails: { email: string | null; name: string | null } | null;
  lineItems: LineItemInput[];
  successUrl: string;
  cancelUrl: string | null;
  clientReferenceId: string | null;
  subscriptionData: {
    metadata: Record<string, string>;
    trialPeriodDays: number | null;
    description: string | null;
  };
  status: "open" | "complete" | "expired";
  paymentStatus: "unpaid" | "paid" | "no_payment_required";
  subscription: string | null;
  invoice: string | null;
  url: string;
}

export interface SubscriptionItemRecord extends Base {
  price: string;
  quantity: number;
}

export type SubscriptionStatus = "incomplete" | "trialing" | "active" | "past_due" | "canceled";

export interface SubscriptionRecord extends Base {
  customer: string;
  status: SubscriptionStatus;
  items: SubscriptionItemRecord[];
  description: string | null;
  startDate: number;
  billingCycleAnchor: number;
  /** `currentPeriodEnd` = anchor + `cycle` intervals (0 while a trial runs up to the anchor). */
  cycle: number;
  currentPeriodStart: number;
  currentPeriodEnd: number;
  cancelAtPeriodEnd: boolean;
  cancelAt: number | null;
  canceledAt: number | null;
  endedAt: number | null;
  cancellationReason: "cancellation_requested" | "payment_failed" | null;
  trialStart: number | null;
  trialEnd: number | null;
  defaultPaymentMethod: string | null;
  latestInvoice: string | null;
}

export interface InvoiceLineRecord {
  id: string;
  amount: number;
  description: string;
  price: string;
  quantity: number;
  periodStart: number;
  periodEnd: number;
  proration: boolean;
  subscriptionItem: string | null;
}

export type BillingReason = "subscription_create" | "subscription_cycle" | "subscription_update";

export interface InvoiceRecord extends Base {
  customer: string;
  subscription: string | null;
  subscriptionMetadata: Record<string, string>;
  billingReason: BillingReason;
  status: "open" | "paid";
  lines: InvoiceLineRecord[];
  currency: string;
  periodStart: number;
  periodEnd: number;
  total: number;
  amountPaid: number;
  attemptCount: number;
  number: string;
  paidAt: number | null;
  paymentMethod: string | null;
}

export interface EventRecord {
  id: string;
  seq: number;
  type: string;
  created: number;
  object: Record<string, unknown>;
  previousAttributes: Record<string, unknown> | null;
}

export interface StripeStore {
  products: Map<string, ProductRecord>;
  prices: Map<string, PriceRecord>;
  customers: Map<string, CustomerRecord>;
  paymentMethods: Map<string, PaymentMethodRecord>;
  sessions: Map<string, CheckoutSessionRecord>;
  subscriptions: Map<string, SubscriptionRecord>;
  invoices: Map<string, InvoiceRecord>;
  events: Map<string, EventRecord>;
  nextSeq(): number;
}

export function createStore(): StripeStore {
  let seq = 0;
  return {
    products: new Map(),
    prices: new Map(),
    customers: new Map(),
    paymentMethods: new Map(),
    sessions: new Map(),
    subscriptions: new Map(),
    invoices: new Map(),
    events: new Map(),
    nextSeq: () => ++seq,
  };
}

/** Newest first, as every Stripe list answers. */
export function newestFirst<T extends { created: number; seq: number }>(records: Iterable<T>): T[] {
  return [...records].sort((a, b) => b.created - a.created || b.seq - a.seq);
}
