import Stripe from "stripe";
import { UpstreamError, ValidationError } from "../errors.ts";
import {
  BillingInProgressError,
  BillingNotConfiguredError,
  PaymentFailedError,
  WebhookSignatureError,
} from "./errors.ts";
import {
  type CheckoutSessionView,
  type PriceView,
  type SubscriptionView,
  toCheckoutSessionView,
  toPriceView,
  toSubscriptionView,
  type WebhookEventView,
} from "./stripe-objects.ts";
import { refuseFutureSignature, toWebhookEventView } from "./webhook-event.ts";

export type { CheckoutSessionView, PriceView, SubscriptionView, WebhookEventView } from "./stripe-objects.ts";

/**
 * What billing needs from Stripe, in our own shapes. Failures arrive as domain errors: Stripe being
 * unreachable or refusing is UpstreamError (502), a declined card PaymentFailedError (402), a bad
 * webhook signature WebhookSignatureError (400). `find*` answer null for an id Stripe does not know.
 */
export interface StripeGateway {
  listRecurringPrices(): Promise<PriceView[]>;
  createCustomer(input: { userId: string; email: string; name: string }): Promise<string>;
  createCheckoutSession(input: {
    customerId: string;
    priceId: string;
    userId: string;
    successUrl: string;
    cancelUrl: string;
    idempotencyKey: string;
  }): Promise<CheckoutSessionView>;
  findCheckoutSession(id: string): Promise<CheckoutSessionView | null>;
  /** The customer's checkout sessions that can still be paid, newest first. */
  listOpenCheckoutSessions(customerId: string): Promise<CheckoutSessionView[]>;
  /** Closes an open session so it can no longer be paid (one already closed is left as it is). */
  expireCheckoutSession(id: string, write: Write): Promise<void>;
  findSubscription(id: string): Promise<SubscriptionView | null>;
  /** Every subscription of the customer, canceled ones included, newest first (product not expanded). */
  listSubscriptions(customerId: string): Promise<SubscriptionView[]>;
  /** Attaches the payment method and answers its id (test shortcuts like pm_card_visa become a new id). */
  attachPaymentMethod(paymentMethodId: string, write: Write & { customerId: string }): Promise<string>;
  setDefaultPaymentMethod(customerId: string, write: Write & { paymentMethodId: string }): Promise<void>;
  createSubscription(input: {
    customerId: string;
    priceId: string;
    paymentMethodId: string;
    idempotencyKey: string;
  }): Promise<SubscriptionView>;
  setCancelAtPeriodEnd(subscriptionId: string, write: Write & { value: boolean }): Promise<SubscriptionView>;
  switchPrice(
    subscriptionId: string,
    write: Write & { itemId: string; priceId: string },
  ): Promise<SubscriptionView>;
  cancelNow(subscriptionId: string, write: Write): Promise<SubscriptionView>;
  verifyWebhook(payload: string, signature: string): Promise<WebhookEventView>;
}

/**
 * Every write carries the Idempotency-Key Stripe deduplicates on: a repeat of the same request
 * (a retry after a lost answer, a second instance racing) replays the first answer instead of
 * charging or changing twice.
 */
export interface Write {
  idempotencyKey: string;
}

export interface StripeGatewayOptions {
  secretKey: string;
  /** Another Stripe API origin (the sandbox); Stripe's own when absent. */
  apiUrl?: string;
  webhookSecret?: string;
}

/** Expanding the product on single objects gives the plan name without another call. */
const WITH_PRODUCT = ["items.data.price.product"];
const MAX_PRICES = 1_000;

/**
 * The official SDK behind StripeGateway. The fetch HTTP client and the SubtleCrypto provider make
 * the same code run on Deno and Node.
 */
export function createStripeGateway(options: StripeGatewayOptions): StripeGateway {
  const stripe = new Stripe(options.secretKey, {
    ...hostOptions(options.apiUrl),
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 2,
    timeout: 20_000,
  });

  const gateway: StripeGateway = {
    async listRecurringPrices() {
      const prices = await call("Listing plans", () =>
        stripe.prices
          .list({ active: true, type: "recurring", expand: ["data.product"], limit: 100 })
          .autoPagingToArray({ limit: MAX_PRICES }),
      );
      return prices.map(toPriceView);
    },

    async createCustomer({ userId, email, name }) {
      // One customer per user even when two first checkouts race: Stripe replays the first answer.
      const customer = await call("Creating the customer", () =>
        stripe.customers.create(
          { email, name, metadata: { userId } },
          { idempotencyKey: `stockbridge-customer-${userId}` },
        ),
      );
      return customer.id;
    },

    async createCheckoutSession(input) {
      const session = await call("Creating the checkout session", () =>
        stripe.checkout.sessions.create(
          {
            mode: "subscription",
            customer: input.customerId,
            line_items: [{ price: input.priceId, quantity: 1 }],
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
            client_reference_id: input.userId,
            metadata: { userId: input.userId },
            subscription_data: { metadata: { userId: input.userId } },
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return toCheckoutSessionView(session);
    },

    async findCheckoutSession(id) {
      const session = await call("Reading the checkout session", () =>
        orNull(stripe.checkout.sessions.retrieve(id)),
      );
      return session ? toCheckoutSessionView(session) : null;
    },

    async listOpenCheckoutSessions(customerId) {
      const list = await call("Listing checkout sessions", () =>
        stripe.checkout.sessions.list({ customer: customerId, status: "open", limit: 100 }),
      );
      return list.data.map(toCheckoutSessionView);
    },

    async expireCheckoutSession(id, { idempotencyKey }) {
      try {
        await call("Closing the earlier checkout session", () =>
          stripe.checkout.sessions.expire(id, {}, { idempotencyKey }),
        );
      } catch (error) {
        // Paid or expired meanwhile: it is closed either way, and a paid one is found by the caller.
        if (!(error instanceof UpstreamError) || (await gateway.findCheckoutSession(id))?.status === "open")
          throw error;
      }
    },

    async findSubscription(id) {
      const subscription = await call("Reading the subscription", () =>
        orNull(stripe.subscriptions.retrieve(id, { expand: WITH_PRODUCT })),
      );
      return subscription ? toSubscriptionView(subscription) : null;
    },

    async listSubscriptions(customerId) {
      const list = await call("Listing subscriptions", () =>
        stripe.subscriptions.list({ customer: customerId, status: "all", limit: 10 }),
      );
      return list.data.map(toSubscriptionView);
    },

    async attachPaymentMethod(paymentMethodId, { customerId, idempotencyKey }) {
      try {
        const method = await call("Attaching the payment method", () =>
          stripe.paymentMethods.attach(paymentMethodId, { customer: customerId }, { idempotencyKey }),
        );
        return method.id;
      } catch (error) {
        if (error instanceof UnknownResource) {
          throw new ValidationError("The payment method was not found", [
            { path: "paymentMethodId", message: error.message },
          ]);
        }
        throw error;
      }
    },

    async setDefaultPaymentMethod(customerId, { paymentMethodId, idempotencyKey }) {
      await call("Setting the default payment method", () =>
        stripe.customers.update(
          customerId,
          { invoice_settings: { default_payment_method: paymentMethodId } },
          { idempotencyKey },
        ),
      );
    },

    async createSubscription({ customerId, priceId, paymentMethodId, idempotencyKey }) {
      const subscription = await call("Creating the subscription", () =>
        stripe.subscriptions.create(
          {
            customer: customerId,
            items: [{ price: priceId }],
            default_payment_method: paymentMethodId,
            // A declined first payment is refused outright instead of leaving an `incomplete` subscription.
            payment_behavior: "error_if_incomplete",
            expand: WITH_PRODUCT,
          },
          { idempotencyKey },
        ),
      );
      return toSubscriptionView(subscription);
    },

    async setCancelAtPeriodEnd(subscriptionId, { value, idempotencyKey }) {
      const subscription = await call(
        value ? "Cancelling the subscription" : "Resuming the subscription",
        () =>
          stripe.subscriptions.update(
            subscriptionId,
            { cancel_at_period_end: value, expand: WITH_PRODUCT },
            { idempotencyKey },
          ),
      );
      return toSubscriptionView(subscription);
    },

    async switchPrice(subscriptionId, { itemId, priceId, idempotencyKey }) {
      const subscription = await call("Switching the plan", () =>
        stripe.subscriptions.update(
          subscriptionId,
          {
            items: [{ id: itemId, price: priceId }],
            proration_behavior: "create_prorations",
            expand: WITH_PRODUCT,
          },
          { idempotencyKey },
        ),
      );
      return toSubscriptionView(subscription);
    },

    async cancelNow(subscriptionId, { idempotencyKey }) {
      const subscription = await call("Cancelling the subscription", () =>
        stripe.subscriptions.cancel(subscriptionId, { expand: WITH_PRODUCT }, { idempotencyKey }),
      );
      return toSubscriptionView(subscription);
    },

    async verifyWebhook(payload, signature) {
      if (!options.webhookSecret)
        throw new BillingNotConfiguredError("Billing is not configured: STRIPE_WEBHOOK_SECRET is missing");
      refuseFutureSignature(signature);
      let event: Stripe.Event;
      try {
        event = await Stripe.webhooks.constructEventAsync(
          payload,
          signature,
          options.webhookSecret,
          undefined,
          Stripe.createSubtleCryptoProvider(),
        );
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new WebhookSignatureError(`Webhook signature verification failed: ${reason}`);
      }
      return toWebhookEventView(event);
    },
  };
  return gateway;
}

function hostOptions(apiUrl: string | undefined): {
  host?: string;
  port?: number;
  protocol?: "http" | "https";
} {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === "http" ? 80 : 443, protocol };
}

/** Stripe's `resource_missing`: still an upstream failure unless a caller knows the id came from the user. */
class UnknownResource extends UpstreamError {}

async function orNull<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (isStripeError(error) && error.code === "resource_missing") return null;
    throw error;
  }
}

/** Runs one SDK call and turns whatever Stripe answers into our error model. */
async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isStripeError(error))
      throw new UpstreamError(
        "Stripe",
        `${what} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    if (error.type === "StripeCardError") throw new PaymentFailedError(error.message);
    // The same key is in flight elsewhere, or was used for other parameters: another change raced.
    if (error.type === "StripeIdempotencyError") throw new BillingInProgressError();
    if (error.code === "resource_missing")
      throw new UnknownResource("Stripe", `${what} failed: ${error.message}`);
    throw new UpstreamError("Stripe", `${what} failed: ${error.message}`);
  }
}

function isStripeError(error: unknown): error is InstanceType<typeof Stripe.errors.StripeError> {
  return error instanceof Stripe.errors.StripeError;
}
