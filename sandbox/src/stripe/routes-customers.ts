import type { Hono } from "hono";
import type { StripeContext } from "./context.ts";
import {
  attachPaymentMethod,
  createCardPaymentMethod,
  createCustomer,
  findPaymentMethod,
} from "./customers.ts";
import { invalidRequest, noSuch, parameterMissing } from "./errors.ts";
import { answer, answerList, LIST_PARAMS, requestParams } from "./http.ts";
import { applyMetadata, type ParamReader } from "./params.ts";
import { type CustomerRecord, newestFirst } from "./records.ts";
import { renderCustomer, renderList, renderPaymentMethod } from "./render.ts";
import { customerMatcher } from "./search.ts";

const CUSTOMER_FIELDS = [
  "email",
  "name",
  "description",
  "metadata",
  "invoice_settings",
  "phone",
  "preferred_locales",
  "address",
] as const;
const INVOICE_SETTINGS = ["default_payment_method", "custom_fields", "footer", "rendering_options"] as const;

/** Customers and their card payment methods. */
export function registerCustomerRoutes(app: Hono, ctx: StripeContext): void {
  app.post("/v1/customers", async (c) => {
    const { params, expand } = await requestParams(c, [...CUSTOMER_FIELDS, "payment_method"]);
    const paymentMethodId = params.string("payment_method");
    const method = paymentMethodId
      ? findPaymentMethod(ctx, paymentMethodId, { param: "payment_method" })
      : undefined;
    // Stripe's own example sends the same pm_card_visa as payment_method and default: one card.
    const aliases = method && paymentMethodId ? { [paymentMethodId]: method.id } : {};
    const defaultMethod = readDefaultPaymentMethod(ctx, params, aliases);
    const customer = createCustomer(ctx, {
      email: params.nullableString("email") ?? null,
      name: params.nullableString("name") ?? null,
      description: params.nullableString("description") ?? null,
      metadata: applyMetadata({}, params.metadata("metadata")),
    });
    if (method) attachPaymentMethod(ctx, method, customer);
    if (defaultMethod) customer.defaultPaymentMethod = requireAttached(ctx, defaultMethod, customer);
    return answer(c, ctx.store, { object: renderCustomer(customer), expand });
  });

  app.get("/v1/customers", async (c) => {
    const { params, expand } = await requestParams(c, [...LIST_PARAMS, "email", "created", "test_clock"]);
    const email = params.string("email");
    const records = newestFirst(ctx.store.customers.values()).filter(
      (customer) => email === undefined || customer.email === email,
    );
    return answerList(c, ctx.store, {
      url: "/v1/customers",
      records,
      kind: "customer",
      render: renderCustomer,
      params,
      expand,
    });
  });

  app.get("/v1/customers/search", async (c) => {
    const { params, expand } = await requestParams(c, ["query", "limit", "page"]);
    const matcher = customerMatcher(params.requiredString("query"));
    const limit = params.integer("limit", { min: 1, max: 100 }) ?? 10;
    const found = newestFirst(ctx.store.customers.values()).filter(matcher);
    const result = {
      ...renderList("/v1/customers/search", found.slice(0, limit).map(renderCustomer), found.length > limit),
      object: "search_result",
      next_page: null,
    };
    return answer(c, ctx.store, { object: result, expand });
  });

  app.get("/v1/customers/:id", async (c) => {
    const { expand } = await requestParams(c, []);
    return answer(c, ctx.store, {
      object: renderCustomer(findCustomer(ctx, c.req.param("id"), { param: "id", status: 404 })),
      expand,
    });
  });

  app.post("/v1/customers/:id", async (c) => {
    const { params, expand } = await requestParams(c, CUSTOMER_FIELDS);
    const customer = findCustomer(ctx, c.req.param("id"), { param: "id", status: 404 });
    const defaultMethod = readDefaultPaymentMethod(ctx, params);
    if (params.has("email")) customer.email = params.nullableString("email") ?? null;
    if (params.has("name")) customer.name = params.nullableString("name") ?? null;
    if (params.has("description")) customer.description = params.nullableString("description") ?? null;
    if (defaultMethod !== undefined)
      customer.defaultPaymentMethod = defaultMethod && requireAttached(ctx, defaultMethod, customer);
    customer.metadata = applyMetadata(customer.metadata, params.metadata("metadata"));
    return answer(c, ctx.store, { object: renderCustomer(customer), expand });
  });

  app.get("/v1/customers/:id/payment_methods", async (c) => {
    const { params, expand } = await requestParams(c, [...LIST_PARAMS, "type", "allow_redisplay"]);
    const customer = findCustomer(ctx, c.req.param("id"), { param: "id", status: 404 });
    params.oneOf("type", ["card"]);
    const records = newestFirst(ctx.store.paymentMethods.values()).filter(
      (method) => method.customer === customer.id,
    );
    const url = `/v1/customers/${customer.id}/payment_methods`;
    return answerList(c, ctx.store, {
      url,
      records,
      kind: "payment_method",
      render: renderPaymentMethod,
      params,
      expand,
    });
  });

  app.post("/v1/payment_methods", async (c) => {
    const { params, expand } = await requestParams(c, [
      "type",
      "card",
      "billing_details",
      "metadata",
      "allow_redisplay",
    ]);
    if (!params.has("type")) throw parameterMissing("type");
    params.oneOf("type", ["card"]);
    const card = params.object("card", ["token", "number", "exp_month", "exp_year", "cvc"]);
    if (!card) throw parameterMissing("card");
    const token = card.string("token");
    const method = createCardPaymentMethod(ctx, {
      token,
      number: token === undefined ? card.requiredString("number") : undefined,
      expMonth: card.integer("exp_month", { min: 1, max: 12 }),
      expYear: card.integer("exp_year", { min: 2000, max: 2100 }),
    });
    method.metadata = applyMetadata({}, params.metadata("metadata"));
    return answer(c, ctx.store, { object: renderPaymentMethod(method), expand });
  });

  app.get("/v1/payment_methods", async (c) => {
    const { params, expand } = await requestParams(c, [...LIST_PARAMS, "customer", "type"]);
    const customer = params.string("customer");
    params.oneOf("type", ["card"]);
    const records = newestFirst(ctx.store.paymentMethods.values()).filter(
      (method) => method.customer !== null && (customer === undefined || method.customer === customer),
    );
    return answerList(c, ctx.store, {
      url: "/v1/payment_methods",
      records,
      kind: "payment_method",
      render: renderPaymentMethod,
      params,
      expand,
    });
  });

  app.get("/v1/payment_methods/:id", async (c) => {
    const { expand } = await requestParams(c, []);
    return answer(c, ctx.store, {
      object: renderPaymentMethod(findPaymentMethod(ctx, c.req.param("id"), { param: "id", status: 404 })),
      expand,
    });
  });

  app.post("/v1/payment_methods/:id/attach", async (c) => {
    const { params, expand } = await requestParams(c, ["customer"]);
    const method = findPaymentMethod(ctx, c.req.param("id"), { param: "payment_method", status: 404 });
    const customer = findCustomer(ctx, params.requiredString("customer"), { param: "customer" });
    attachPaymentMethod(ctx, method, customer);
    return answer(c, ctx.store, { object: renderPaymentMethod(method), expand });
  });

  app.post("/v1/payment_methods/:id/detach", async (c) => {
    const { expand } = await requestParams(c, []);
    const method = findPaymentMethod(ctx, c.req.param("id"), { param: "payment_method", status: 404 });
    if (method.customer === null) {
      throw invalidRequest(
        "The payment method you provided is not attached to a customer so detachment is impossible.",
        {
          code: "payment_method_unexpected_state",
        },
      );
    }
    const customer = ctx.store.customers.get(method.customer);
    if (customer?.defaultPaymentMethod === method.id) customer.defaultPaymentMethod = null;
    method.customer = null;
    ctx.emit("payment_method.detached", renderPaymentMethod(method));
    return answer(c, ctx.store, { object: renderPaymentMethod(method), expand });
  });
}

/** `invoice_settings[default_payment_method]`: undefined = not sent, null = unset. */
function readDefaultPaymentMethod(
  ctx: StripeContext,
  params: ParamReader,
  aliases: Record<string, string> = {},
): string | null | undefined {
  const settings = params.object("invoice_settings", INVOICE_SETTINGS);
  const id = settings?.nullableString("default_payment_method");
  if (!id) return id;
  if (aliases[id]) return aliases[id];
  return findPaymentMethod(ctx, id, { param: "invoice_settings[default_payment_method]" }).id;
}

/** Stripe refuses a default payment method that is not attached to the customer. */
export function requireAttached(
  ctx: StripeContext,
  paymentMethodId: string,
  customer: CustomerRecord,
): string {
  const method = ctx.store.paymentMethods.get(paymentMethodId);
  if (method?.customer !== customer.id) {
    throw invalidRequest(
      `The customer does not have a payment method with the ID ${paymentMethodId}. The payment method must be attached to the customer.`,
      { param: "default_payment_method" },
    );
  }
  return paymentMethodId;
}

export function findCustomer(
  ctx: StripeContext,
  id: string,
  { param, status = 400 }: { param: string; status?: 400 | 404 },
): CustomerRecord {
  const customer = ctx.store.customers.get(id);
  if (!customer) throw noSuch("customer", id, { param, status });
  return customer;
}
