import type { Hono } from "hono";
import {
  cancelSubscription,
  type ItemChange,
  PAYMENT_BEHAVIORS,
  PRORATION_BEHAVIORS,
  recurringPrice,
  type SubscriptionChanges,
  startSubscription,
  updateSubscription,
} from "./billing.ts";
import type { StripeContext } from "./context.ts";
import { findPaymentMethod } from "./customers.ts";
import { invalidRequest, noSuch, parameterMissing } from "./errors.ts";
import { answer, answerList, LIST_PARAMS, requestParams } from "./http.ts";
import { whereEqual } from "./list-filters.ts";
import { applyMetadata, type ParamReader } from "./params.ts";
import { type InvoiceRecord, newestFirst, type SubscriptionRecord } from "./records.ts";
import { renderEvent } from "./render.ts";
import { renderInvoice } from "./render-invoice.ts";
import { renderSubscription } from "./render-subscription.ts";
import { findCustomer, requireAttached } from "./routes-customers.ts";

/** Accepted for compatibility with real integrations; they do not change the simulation. */
const IGNORED = [
  "off_session",
  "payment_settings",
  "automatic_tax",
  "collection_method",
  "proration_date",
  "cancellation_details",
] as const;
const ITEM_FIELDS = ["id", "price", "quantity", "deleted", "metadata", "clear_usage"] as const;

/** Subscriptions, their invoices, and the event log. */
export function registerSubscriptionRoutes(app: Hono, ctx: StripeContext): void {
  const renderOne = (subscription: SubscriptionRecord) => renderSubscription(subscription, ctx.store);

  app.post("/v1/subscriptions", async (c) => {
    const { params, expand } = await requestParams(c, [
      ...IGNORED,
      "customer",
      "items",
      "default_payment_method",
      "metadata",
      "trial_period_days",
      "payment_behavior",
      "cancel_at_period_end",
      "description",
      "proration_behavior",
    ]);
    const customer = findCustomer(ctx, params.requiredString("customer"), { param: "customer" });
    const entries = params.list("items", ITEM_FIELDS);
    if (!entries || entries.length === 0) throw parameterMissing("items");
    const items = entries.map((entry) => ({
      price: recurringPrice(ctx, entry.requiredString("price"), entry.name("price")).id,
      quantity: entry.integer("quantity", { min: 1 }) ?? 1,
    }));
    const methodId = params.string("default_payment_method");
    const method = methodId
      ? requireAttached(
          ctx,
          findPaymentMethod(ctx, methodId, { param: "default_payment_method" }).id,
          customer,
        )
      : null;
    const subscription = startSubscription(ctx, {
      customer,
      items,
      defaultPaymentMethod: method,
      metadata: applyMetadata({}, params.metadata("metadata")),
      description: params.nullableString("description") ?? null,
      trialDays: params.integer("trial_period_days", { min: 1, max: 730 }) ?? null,
      paymentBehavior: params.oneOf("payment_behavior", PAYMENT_BEHAVIORS) ?? "allow_incomplete",
      cancelAtPeriodEnd: params.boolean("cancel_at_period_end") ?? false,
    });
    return answer(c, ctx.store, { object: renderOne(subscription), expand });
  });

  app.get("/v1/subscriptions", async (c) => {
    const { params, expand } = await requestParams(c, [
      ...LIST_PARAMS,
      "customer",
      "price",
      "status",
      "created",
      "current_period_end",
      "current_period_start",
      "collection_method",
      "test_clock",
      "automatic_tax",
    ]);
    const customer = params.string("customer");
    const price = params.string("price");
    const status = params.oneOf("status", [
      "active",
      "all",
      "canceled",
      "ended",
      "incomplete",
      "incomplete_expired",
      "past_due",
      "paused",
      "trialing",
      "unpaid",
    ]);
    // Stripe leaves canceled subscriptions out unless asked for them.
    const statusMatches = (record: SubscriptionRecord) =>
      status === "all" ||
      (status === undefined && record.status !== "canceled") ||
      record.status === status ||
      (status === "ended" && record.status === "canceled");
    const records = newestFirst(ctx.store.subscriptions.values()).filter(
      (record) =>
        (customer === undefined || record.customer === customer) &&
        (price === undefined || record.items.some((item) => item.price === price)) &&
        statusMatches(record),
    );
    return answerList(c, ctx.store, {
      url: "/v1/subscriptions",
      records,
      kind: "subscription",
      render: renderOne,
      params,
      expand,
    });
  });

  app.get("/v1/subscriptions/:id", async (c) => {
    const { expand } = await requestParams(c, []);
    return answer(c, ctx.store, { object: renderOne(findSubscription(ctx, c.req.param("id"))), expand });
  });

  app.post("/v1/subscriptions/:id", async (c) => {
    const { params, expand } = await requestParams(c, [
      ...IGNORED,
      "cancel_at_period_end",
      "cancel_at",
      "items",
      "proration_behavior",
      "metadata",
      "default_payment_method",
      "description",
      "payment_behavior",
    ]);
    const subscription = findSubscription(ctx, c.req.param("id"));
    updateSubscription(ctx, subscription, readChanges(ctx, params, subscription));
    return answer(c, ctx.store, { object: renderOne(subscription), expand });
  });

  app.delete("/v1/subscriptions/:id", async (c) => {
    const { expand } = await requestParams(c, ["invoice_now", "prorate", "cancellation_details"]);
    const subscription = findSubscription(ctx, c.req.param("id"));
    cancelSubscription(ctx, subscription);
    return answer(c, ctx.store, { object: renderOne(subscription), expand });
  });

  app.get("/v1/invoices", async (c) => {
    const { params, expand } = await requestParams(c, [
      ...LIST_PARAMS,
      "customer",
      "subscription",
      "status",
      "created",
      "collection_method",
      "due_date",
    ]);
    const records = newestFirst(ctx.store.invoices.values()).filter(
      whereEqual<InvoiceRecord>({
        customer: params.string("customer"),
        subscription: params.string("subscription"),
        status: params.oneOf("status", ["draft", "open", "paid", "uncollectible", "void"]),
      }),
    );
    const render = (invoice: InvoiceRecord) => renderInvoice(invoice, ctx.store);
    return answerList(c, ctx.store, {
      url: "/v1/invoices",
      records,
      kind: "invoice",
      render,
      params,
      expand,
    });
  });

  app.get("/v1/invoices/:id", async (c) => {
    const { expand } = await requestParams(c, []);
    const invoice = ctx.store.invoices.get(c.req.param("id"));
    if (!invoice) throw noSuch("invoice", c.req.param("id"), { param: "invoice", status: 404 });
    return answer(c, ctx.store, { object: renderInvoice(invoice, ctx.store), expand });
  });

  app.get("/v1/events", async (c) => {
    const { params, expand } = await requestParams(c, [
      ...LIST_PARAMS,
      "type",
      "types",
      "created",
      "delivery_success",
    ]);
    const type = params.string("type");
    const types = params.strings("types");
    // `type` may end in a wildcard, e.g. customer.subscription.*
    const typeMatches = (eventType: string) =>
      type === undefined ||
      (type.endsWith(".*") ? eventType.startsWith(type.slice(0, -1)) : eventType === type);
    const records = newestFirst(
      [...ctx.store.events.values()].filter(
        (event) => typeMatches(event.type) && (!types || types.includes(event.type)),
      ),
    );
    return answerList(c, ctx.store, {
      url: "/v1/events",
      records,
      kind: "event",
      render: renderEvent,
      params,
      expand,
    });
  });

  app.get("/v1/events/:id", async (c) => {
    const { expand } = await requestParams(c, []);
    const event = ctx.store.events.get(c.req.param("id"));
    if (!event) throw noSuch("event", c.req.param("id"), { param: "id", status: 404 });
    return answer(c, ctx.store, { object: renderEvent(event), expand });
  });
}

function readChanges(
  ctx: StripeContext,
  params: ParamReader,
  subscription: SubscriptionRecord,
): SubscriptionChanges {
  const items = params.list("items", ITEM_FIELDS)?.map(
    (entry): ItemChange => ({
      id: entry.string("id"),
      price: entry.string("price"),
      quantity: entry.integer("quantity", { min: 0 }),
      deleted: entry.boolean("deleted"),
    }),
  );
  const cancelAt = params.nullableInteger("cancel_at");
  const cancelAtPeriodEnd = params.boolean("cancel_at_period_end");
  if (cancelAt !== undefined && cancelAtPeriodEnd !== undefined) {
    throw invalidRequest("You may only specify one of these parameters: cancel_at, cancel_at_period_end.", {
      param: "cancel_at",
    });
  }
  const methodId = params.nullableString("default_payment_method");
  const customer = ctx.store.customers.get(subscription.customer)!;
  return {
    cancelAtPeriodEnd,
    cancelAt,
    items,
    prorationBehavior: params.oneOf("proration_behavior", PRORATION_BEHAVIORS),
    metadata: params.metadata("metadata"),
    defaultPaymentMethod: methodId
      ? requireAttached(
          ctx,
          findPaymentMethod(ctx, methodId, { param: "default_payment_method" }).id,
          customer,
        )
      : methodId,
    description: params.has("description") ? (params.nullableString("description") ?? null) : undefined,
  };
}

function findSubscription(ctx: StripeContext, id: string): SubscriptionRecord {
  const subscription = ctx.store.subscriptions.get(id);
  if (!subscription) throw noSuch("subscription", id, { param: "id", status: 404 });
  return subscription;
}
