import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripePerTest } from "../../testing/stripe-harness.ts";

const given = stripePerTest();

describe("GET /v1/prices", () => {
  it("lists the three monthly plans with their products expanded, Starter first", async () => {
    const { stripe } = await given();

    const prices = await stripe.prices.list({ active: true, expand: ["data.product"] });

    expect(prices.object).toBe("list");
    expect(prices.has_more).toBe(false);
    expect(prices.data.map((price) => price.id)).toEqual([
      "price_starter_monthly",
      "price_growth_monthly",
      "price_scale_monthly",
    ]);
    const growth = prices.data[1]!;
    expect(growth).toMatchObject({
      object: "price",
      unit_amount: 7900,
      currency: "usd",
      type: "recurring",
      lookup_key: "growth_monthly",
      recurring: { interval: "month", interval_count: 1 },
    });
    const product = growth.product as Stripe.Product;
    expect(product).toMatchObject({ id: "prod_growth", object: "product", name: "Growth", active: true });
    const features = JSON.parse(product.metadata.features!) as string[];
    expect(features).toContain("Sync schedules every 15 minutes");
    expect(product.marketing_features.map((feature) => feature.name)).toEqual(features);
  });

  it("filters by lookup_keys and by product", async () => {
    const { stripe } = await given();

    const byKey = await stripe.prices.list({ lookup_keys: ["scale_monthly", "starter_monthly"] });
    const byProduct = await stripe.prices.list({ product: "prod_growth" });

    expect(byKey.data.map((price) => price.id).sort()).toEqual([
      "price_scale_monthly",
      "price_starter_monthly",
    ]);
    expect(byProduct.data.map((price) => price.id)).toEqual(["price_growth_monthly"]);
  });

  it("pages with limit and starting_after", async () => {
    const { stripe } = await given();

    const first = await stripe.prices.list({ limit: 2 });
    const second = await stripe.prices.list({ limit: 2, starting_after: first.data[1]!.id });

    expect(first.has_more).toBe(true);
    expect(second.has_more).toBe(false);
    expect(second.data.map((price) => price.id)).toEqual(["price_scale_monthly"]);
  });

  it("answers an unknown parameter with parameter_unknown", async () => {
    const { stripe } = await given();

    const error = await stripe.prices
      .list({ colour: "red" } as Stripe.PriceListParams)
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 400, code: "parameter_unknown", param: "colour" });
  });
});

describe("GET /v1/prices/:id", () => {
  it("answers 404 resource_missing with Stripe's message for an unknown price", async () => {
    const { stripe } = await given();

    const error = await stripe.prices.retrieve("price_nope").catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({
      statusCode: 404,
      type: "StripeInvalidRequestError",
      code: "resource_missing",
      param: "id",
      message: "No such price: 'price_nope'",
    });
  });
});
