import type { Hono } from "hono";
import type { StripeContext } from "./context.ts";
import { invalidRequest, noSuch, parameterMissing } from "./errors.ts";
import { answer, answerList, LIST_PARAMS, requestParams } from "./http.ts";
import { newId } from "./ids.ts";
import { applyMetadata, type ParamReader } from "./params.ts";
import { INTERVALS } from "./periods.ts";
import { newestFirst, type PriceRecord, type ProductRecord } from "./records.ts";
import { renderPrice, renderProduct } from "./render.ts";

const PRODUCT_FIELDS = ["name", "description", "active", "metadata", "marketing_features"] as const;
const PRICE_UPDATE_FIELDS = ["active", "metadata", "nickname", "lookup_key", "transfer_lookup_key"] as const;

/** Products and prices: the plan catalog the product's billing page lists. */
export function registerCatalogRoutes(app: Hono, ctx: StripeContext): void {
  app.get("/v1/products", async (c) => {
    const { params, expand } = await requestParams(c, [
      ...LIST_PARAMS,
      "active",
      "ids",
      "created",
      "shippable",
      "url",
    ]);
    const active = params.boolean("active");
    const ids = params.strings("ids");
    const records = newestFirst(ctx.store.products.values()).filter(
      (product) => (active === undefined || product.active === active) && (!ids || ids.includes(product.id)),
    );
    return answerList(c, ctx.store, {
      url: "/v1/products",
      records,
      kind: "product",
      render: renderProduct,
      params,
      expand,
    });
  });

  app.get("/v1/products/:id", async (c) => {
    const { expand } = await requestParams(c, []);
    return answer(c, ctx.store, {
      object: renderProduct(findProduct(ctx, c.req.param("id"), { param: "id", status: 404 })),
      expand,
    });
  });

  app.post("/v1/products", async (c) => {
    const { params, expand } = await requestParams(c, [...PRODUCT_FIELDS, "id", "default_price_data"]);
    if (params.has("default_price_data"))
      throw invalidRequest(
        "The sandbox does not simulate default_price_data: create the price with POST /v1/prices.",
        { param: "default_price_data" },
      );
    const now = ctx.now();
    const product: ProductRecord = {
      id: params.string("id") ?? newId("prod_", 14),
      created: now,
      updated: now,
      seq: ctx.store.nextSeq(),
      name: params.requiredString("name"),
      description: params.nullableString("description") ?? null,
      active: params.boolean("active") ?? true,
      features: readFeatures(params) ?? [],
      defaultPrice: null,
      metadata: applyMetadata({}, params.metadata("metadata")),
    };
    if (ctx.store.products.has(product.id))
      throw invalidRequest(`Product already exists.`, { param: "id", code: "resource_already_exists" });
    ctx.store.products.set(product.id, product);
    return answer(c, ctx.store, { object: renderProduct(product), expand });
  });

  app.post("/v1/products/:id", async (c) => {
    const { params, expand } = await requestParams(c, [...PRODUCT_FIELDS, "default_price"]);
    const product = findProduct(ctx, c.req.param("id"), { param: "id", status: 404 });
    const defaultPrice = params.nullableString("default_price");
    if (defaultPrice) findPrice(ctx, defaultPrice, { param: "default_price" });
    if (params.has("name")) product.name = params.requiredString("name");
    if (params.has("description")) product.description = params.nullableString("description") ?? null;
    if (defaultPrice !== undefined) product.defaultPrice = defaultPrice;
    product.active = params.boolean("active") ?? product.active;
    product.features = readFeatures(params) ?? product.features;
    product.metadata = applyMetadata(product.metadata, params.metadata("metadata"));
    product.updated = ctx.now();
    return answer(c, ctx.store, { object: renderProduct(product), expand });
  });

  app.get("/v1/prices", async (c) => {
    const { params, expand } = await requestParams(c, [
      ...LIST_PARAMS,
      "active",
      "product",
      "lookup_keys",
      "type",
      "currency",
      "recurring",
      "created",
    ]);
    const active = params.boolean("active");
    const product = params.string("product");
    const lookupKeys = params.strings("lookup_keys");
    const type = params.oneOf("type", ["one_time", "recurring"]);
    const currency = params.string("currency");
    const interval = params
      .object("recurring", ["interval", "meter", "usage_type"])
      ?.oneOf("interval", INTERVALS);
    const records = newestFirst(ctx.store.prices.values()).filter(
      (price) =>
        (active === undefined || price.active === active) &&
        (product === undefined || price.product === product) &&
        (!lookupKeys || (price.lookupKey !== null && lookupKeys.includes(price.lookupKey))) &&
        type !== "one_time" &&
        (currency === undefined || price.currency === currency) &&
        (interval === undefined || price.interval === interval),
    );
    return answerList(c, ctx.store, {
      url: "/v1/prices",
      records,
      kind: "price",
      render: renderPrice,
      params,
      expand,
    });
  });

  app.get("/v1/prices/:id", async (c) => {
    const { expand } = await requestParams(c, []);
    return answer(c, ctx.store, {
      object: renderPrice(findPrice(ctx, c.req.param("id"), { param: "id", status: 404 })),
      expand,
    });
  });

  app.post("/v1/prices", async (c) => {
    const { params, expand } = await requestParams(c, [
      ...PRICE_UPDATE_FIELDS,
      "product",
      "unit_amount",
      "currency",
      "recurring",
      "billing_scheme",
      "tax_behavior",
    ]);
    const product = findProduct(ctx, params.requiredString("product"), { param: "product" });
    const recurring = params.object("recurring", [
      "interval",
      "interval_count",
      "trial_period_days",
      "usage_type",
    ]);
    if (!recurring)
      throw invalidRequest("The sandbox simulates recurring prices only: send recurring[interval].", {
        param: "recurring",
      });
    const unitAmount = params.integer("unit_amount", { min: 0 });
    if (unitAmount === undefined) throw parameterMissing("unit_amount");
    const lookupKey = params.nullableString("lookup_key") ?? null;
    const price: PriceRecord = {
      id: newId("price_"),
      created: ctx.now(),
      seq: ctx.store.nextSeq(),
      product: product.id,
      active: params.boolean("active") ?? true,
      currency: params.requiredString("currency").toLowerCase(),
      unitAmount,
      interval: recurring.oneOf("interval", INTERVALS) ?? missing(recurring, "interval"),
      intervalCount: recurring.integer("interval_count", { min: 1, max: 12 }) ?? 1,
      trialPeriodDays: recurring.integer("trial_period_days", { min: 1, max: 730 }) ?? null,
      lookupKey,
      nickname: params.nullableString("nickname") ?? null,
      metadata: applyMetadata({}, params.metadata("metadata")),
    };
    claimLookupKey(ctx, price, params.boolean("transfer_lookup_key") ?? false);
    ctx.store.prices.set(price.id, price);
    return answer(c, ctx.store, { object: renderPrice(price), expand });
  });

  app.post("/v1/prices/:id", async (c) => {
    const { params, expand } = await requestParams(c, PRICE_UPDATE_FIELDS);
    const price = findPrice(ctx, c.req.param("id"), { param: "id", status: 404 });
    price.active = params.boolean("active") ?? price.active;
    price.metadata = applyMetadata(price.metadata, params.metadata("metadata"));
    if (params.has("nickname")) price.nickname = params.nullableString("nickname") ?? null;
    if (params.has("lookup_key")) {
      price.lookupKey = params.nullableString("lookup_key") ?? null;
      claimLookupKey(ctx, price, params.boolean("transfer_lookup_key") ?? false);
    }
    return answer(c, ctx.store, { object: renderPrice(price), expand });
  });
}

function missing(params: ParamReader, key: string): never {
  throw parameterMissing(params.name(key));
}

/** Lookup keys are unique per account; `transfer_lookup_key` moves one from its current price. */
function claimLookupKey(ctx: StripeContext, price: PriceRecord, transfer: boolean): void {
  if (price.lookupKey === null) return;
  for (const other of ctx.store.prices.values()) {
    if (other.id === price.id || other.lookupKey !== price.lookupKey) continue;
    if (!transfer) {
      throw invalidRequest(`A price (\`${other.id}\`) already uses that lookup key.`, {
        param: "lookup_key",
      });
    }
    other.lookupKey = null;
  }
}

function readFeatures(params: ParamReader): string[] | undefined {
  return params.list("marketing_features", ["name"])?.map((feature) => feature.requiredString("name"));
}

function findProduct(
  ctx: StripeContext,
  id: string,
  { param, status = 400 }: { param: string; status?: 400 | 404 },
): ProductRecord {
  const product = ctx.store.products.get(id);
  if (!product) throw noSuch("product", id, { param, status });
  return product;
}

function findPrice(
  ctx: StripeContext,
  id: string,
  { param, status = 400 }: { param: string; status?: 400 | 404 },
): PriceRecord {
  const price = ctx.store.prices.get(id);
  if (!price) throw noSuch("price", id, { param, status });
  return price;
}
