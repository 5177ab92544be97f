import type { Hono } from "hono";
import { recurringPrice } from "./billing.ts";
import type { StripeContext } from "./context.ts";
import { invalidRequest, noSuch, parameterMissing } from "./errors.ts";
import { answer, answerList, LIST_PARAMS, requestParams } from "./http.ts";
import { ID_LENGTHS, newId } from "./ids.ts";
import { whereEqual } from "./list-filters.ts";
import { applyMetadata, type ParamReader } from "./params.ts";
import { type CheckoutSessionRecord, type LineItemInput, newestFirst } from "./records.ts";
import { renderCheckoutSession, renderList } from "./render.ts";
import { findCustomer } from "./routes-customers.ts";

const DAY = 86_400;

/** Parameters Stripe accepts that change nothing in the simulation (collected by the hosted page, taxes...). */
const ACCEPTED_AND_IGNORED = [
  "payment_method_types",
  "allow_promotion_codes",
  "billing_address_collection",
  "customer_update",
  "locale",
  "ui_mode",
  "payment_method_collection",
  "automatic_tax",
  "tax_id_collection",
  "consent_collection",
  "custom_text",
  "phone_number_collection",
  "saved_payment_method_options",
] as const;

const CREATE_FIELDS = [
  ...ACCEPTED_AND_IGNORED,
  "mode",
  "customer",
  "customer_email",
  "line_items",
  "success_url",
  "cancel_url",
  "client_reference_id",
  "metadata",
  "subscription_data",
  "expires_at",
] as const;

/** The Checkout Sessions API; the hosted page itself is in checkout-page.ts. */
export function registerCheckoutRoutes(app: Hono, ctx: StripeContext): void {
  app.post("/v1/checkout/sessions", async (c) => {
    const { params, expand } = await requestParams(c, CREATE_FIELDS);
    const session = createSession(ctx, params, new URL(c.req.url).origin);
    ctx.store.sessions.set(session.id, session);
    return answer(c, ctx.store, { object: renderCheckoutSession(session, ctx.store), expand });
  });

  app.get("/v1/checkout/sessions", async (c) => {
    const { params, expand } = await requestParams(c, [
      ...LIST_PARAMS,
      "customer",
      "subscription",
      "status",
      "created",
      "payment_intent",
    ]);
    const records = newestFirst(ctx.store.sessions.values()).filter(
      whereEqual<CheckoutSessionRecord>({
        customer: params.string("customer"),
        subscription: params.string("subscription"),
        status: params.oneOf("status", ["open", "complete", "expired"]),
      }),
    );
    const render = (session: CheckoutSessionRecord) => renderCheckoutSession(session, ctx.store);
    return answerList(c, ctx.store, {
      url: "/v1/checkout/sessions",
      records,
      kind: "checkout.session",
      render,
      params,
      expand,
    });
  });

  app.get("/v1/checkout/sessions/:id", async (c) => {
    const { expand } = await requestParams(c, []);
    return answer(c, ctx.store, {
      object: renderCheckoutSession(findSession(ctx, c.req.param("id")), ctx.store),
      expand,
    });
  });

  app.get("/v1/checkout/sessions/:id/line_items", async (c) => {
    const { params, expand } = await requestParams(c, LIST_PARAMS);
    const session = findSession(ctx, c.req.param("id"));
    const items = session.lineItems.map((item, index) => {
      const price = ctx.store.prices.get(item.price)!;
      const amount = price.unitAmount * item.quantity;
      return {
        id: `li_${session.id.slice(-20)}${index}`,
        object: "item",
        amount_discount: 0,
        amount_subtotal: amount,
        amount_tax: 0,
        amount_total: amount,
        currency: price.currency,
        description: ctx.store.products.get(price.product)?.name ?? price.id,
        price: item.price,
        quantity: item.quantity,
      };
    });
    params.integer("limit", { min: 1, max: 100 });
    return answer(c, ctx.store, {
      object: renderList(`/v1/checkout/sessions/${session.id}/line_items`, items, false),
      expand,
    });
  });

  app.post("/v1/checkout/sessions/:id/expire", async (c) => {
    const { expand } = await requestParams(c, []);
    const session = findSession(ctx, c.req.param("id"));
    if (session.status !== "open") {
      throw invalidRequest(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
      );
    }
    session.status = "expired";
    const object = renderCheckoutSession(session, ctx.store);
    ctx.emit("checkout.session.expired", object);
    return answer(c, ctx.store, { object, expand });
  });
}

function createSession(ctx: StripeContext, params: ParamReader, origin: string): CheckoutSessionRecord {
  const mode = params.oneOf("mode", ["payment", "setup", "subscription"]);
  if (mode === undefined) throw parameterMissing("mode");
  if (mode !== "subscription") {
    throw invalidRequest(`The sandbox simulates Checkout in subscription mode only (got mode=${mode}).`, {
      param: "mode",
    });
  }
  const customerId = params.string("customer");
  const customerEmail = params.string("customer_email");
  if (customerId !== undefined && customerEmail !== undefined) {
    throw invalidRequest("You may only specify one of these parameters: customer, customer_email.", {
      param: "customer",
    });
  }
  if (customerId !== undefined) findCustomer(ctx, customerId, { param: "customer" });
  const successUrl = readUrl(params, "success_url", true)!;
  const cancelUrl = readUrl(params, "cancel_url", false);
  const lineItems = readLineItems(ctx, params);
  const subscriptionData = params.object("subscription_data", [
    "metadata",
    "trial_period_days",
    "description",
    "trial_settings",
    "billing_cycle_anchor",
    "proration_behavior",
  ]);
  const now = ctx.now();
  const expiresAt = params.integer("expires_at") ?? now + DAY;
  if (expiresAt < now + 30 * 60 || expiresAt > now + DAY) {
    throw invalidRequest(
      "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.",
      { param: "expires_at" },
    );
  }
  const id = newId("cs_test_", ID_LENGTHS.checkoutSession);
  return {
    id,
    created: now,
    seq: ctx.store.nextSeq(),
    metadata: applyMetadata({}, params.metadata("metadata")),
    expiresAt,
    customer: customerId ?? null,
    customerEmail: customerEmail ?? null,
    customerDetails: null,
    lineItems,
    successUrl,
    cancelUrl,
    clientReferenceId: params.nullableString("client_reference_id") ?? null,
    subscriptionData: {
      metadata: applyMetadata({}, subscriptionData?.metadata("metadata")),
      trialPeriodDays: subscriptionData?.integer("trial_period_days", { min: 1, max: 730 }) ?? null,
      description: subscriptionData?.nullableString("description") ?? null,
    },
    status: "open",
    paymentStatus: "unpaid",
    subscription: null,
    invoice: null,
    url: `${origin}/checkout/${id}`,
  };
}

function readUrl(params: ParamReader, key: string, required: boolean): string | null {
  const value = required ? params.requiredString(key) : params.string(key);
  if (value === undefined) return null;
  if (!URL.canParse(value)) throw invalidRequest("Not a valid URL", { param: key, code: "url_invalid" });
  return value;
}

function readLineItems(ctx: StripeContext, params: ParamReader): LineItemInput[] {
  const entries =
    params.list("line_items", [
      "price",
      "quantity",
      "price_data",
      "adjustable_quantity",
      "tax_rates",
      "dynamic_tax_rates",
    ]) ?? [];
  if (entries.length === 0) {
    throw invalidRequest(
      "You must provide at least one recurring price in `subscription` mode when using prices.",
      { param: "line_items" },
    );
  }
  const items = entries.map((entry) => {
    if (entry.has("price_data")) {
      throw invalidRequest("The sandbox does not simulate price_data: pass the id of a price.", {
        param: entry.name("price_data"),
      });
    }
    const price = recurringPrice(ctx, entry.requiredString("price"), entry.name("price"));
    const quantity = entry.integer("quantity", { min: 1, max: 999_999 });
    if (quantity === undefined) throw parameterMissing(entry.name("quantity"));
    return { price: price.id, quantity };
  });
  const [first] = items;
  const interval = (id: string) => ctx.store.prices.get(id)!.interval;
  if (items.some((item) => interval(item.price) !== interval(first!.price))) {
    throw invalidRequest("Checkout does not support multiple prices with different billing intervals.", {
      param: "line_items",
    });
  }
  return items;
}

function findSession(ctx: StripeContext, id: string): CheckoutSessionRecord {
  const session = ctx.store.sessions.get(id);
  if (!session) throw noSuch("checkout.session", id, { param: "session", status: 404 });
  return session;
}
