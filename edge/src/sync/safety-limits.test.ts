import { DEFAULT_SAFETY_LIMITS, safetyLimitRule } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { createTestApp, failure } from "../../testing/helpers.ts";

const PRICE_RULE = safetyLimitRule("maxPriceChangePercent", 1000);
const ZEROED_RULE = safetyLimitRule("maxZeroedPercent", 100);

describe("GET/PUT /api/settings/safety", () => {
  it("answers the defaults before anything is saved: 50 % price change, 20 % of quantities zeroed", async () => {
    const { request, registerUser } = await createTestApp();
    const { token } = await registerUser();

    const response = await request("/api/settings/safety", { token });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { maxPriceChangePercent: 50, maxZeroedPercent: 20 } });
    expect(DEFAULT_SAFETY_LIMITS).toEqual({ maxPriceChangePercent: 50, maxZeroedPercent: 20 });
  });

  it("saves both limits, 0 turning one off, and keeps the price and quantity mapping as they were", async () => {
    const { client, registerUser } = await createTestApp();
    const { token } = await registerUser();
    const api = client(token);
    await api.call("savePriceMapping", { body: { syncPrice: true, syncMsrp: true } });

    const saved = await api.call("saveSafetyLimits", {
      body: { maxPriceChangePercent: 0, maxZeroedPercent: 35 },
    });

    expect(saved).toEqual({ maxPriceChangePercent: 0, maxZeroedPercent: 35 });
    expect(await api.call("safetyLimits")).toEqual({ maxPriceChangePercent: 0, maxZeroedPercent: 35 });
    expect(await api.call("settings")).toMatchObject({ priceMapping: { syncPrice: true, syncMsrp: true } });
    // Saving a mapping afterwards leaves the limits as they are.
    await api.call("saveQuantityMapping", {
      body: { acumaticaQuantity: "OnHand", shopifyQuantity: "Available" },
    });
    expect(await api.call("safetyLimits")).toEqual({ maxPriceChangePercent: 0, maxZeroedPercent: 35 });
  });

  it("takes the bounds themselves: 1000 % for a price, 100 % of quantities", async () => {
    const { client, registerUser } = await createTestApp();
    const { token } = await registerUser();

    const saved = await client(token).call("saveSafetyLimits", {
      body: { maxPriceChangePercent: 1000, maxZeroedPercent: 100 },
    });

    expect(saved).toEqual({ maxPriceChangePercent: 1000, maxZeroedPercent: 100 });
  });

  const bad: [string, Record<string, unknown>, { path: string; message: string }][] = [
    [
      "a price limit over 1000",
      { maxPriceChangePercent: 1001, maxZeroedPercent: 20 },
      { path: "maxPriceChangePercent", message: PRICE_RULE },
    ],
    [
      "a negative price limit",
      { maxPriceChangePercent: -1, maxZeroedPercent: 20 },
      { path: "maxPriceChangePercent", message: PRICE_RULE },
    ],
    [
      "a fractional price limit",
      { maxPriceChangePercent: 12.5, maxZeroedPercent: 20 },
      { path: "maxPriceChangePercent", message: PRICE_RULE },
    ],
    [
      "a price limit sent as text",
      { maxPriceChangePercent: "50", maxZeroedPercent: 20 },
      { path: "maxPriceChangePercent", message: PRICE_RULE },
    ],
    [
      "a null zeroed limit",
      { maxPriceChangePercent: 50, maxZeroedPercent: null },
      { path: "maxZeroedPercent", message: ZEROED_RULE },
    ],
    [
      "a zeroed limit over 100",
      { maxPriceChangePercent: 50, maxZeroedPercent: 101 },
      { path: "maxZeroedPercent", message: ZEROED_RULE },
    ],
    [
      "a huge zeroed limit",
      { maxPriceChangePercent: 50, maxZeroedPercent: 1e308 },
      { path: "maxZeroedPercent", message: ZEROED_RULE },
    ],
    [
      "a missing zeroed limit",
      { maxPriceChangePercent: 50 },
      { path: "maxZeroedPercent", message: "maxZeroedPercent is required" },
    ],
  ];
  it.each(bad)(
    "refuses %s with a 400 naming the field and its rule, and saves nothing",
    async (_, body, issue) => {
      const { request, client, registerUser } = await createTestApp();
      const { token } = await registerUser();

      const response = await request("/api/settings/safety", { method: "PUT", token, body });

      expect(response.status).toBe(400);
      const answer = await response.json();
      expect(answer).toMatchObject({ code: "VALIDATION_FAILED", message: issue.message });
      expect(answer.errors).toContainEqual(issue);
      expect(await client(token).call("safetyLimits")).toEqual({
        maxPriceChangePercent: 50,
        maxZeroedPercent: 20,
      });
    },
  );

  it("refuses a body that is not JSON with a 400, not a 500", async () => {
    const { request, registerUser } = await createTestApp();
    const { token } = await registerUser();

    const response = await request("/api/settings/safety", {
      method: "PUT",
      token,
      body: "{maxZeroedPercent",
    });

    expect(response.status).toBe(400);
  });

  it("keeps each user's limits to that user", async () => {
    const { client, registerUser } = await createTestApp();
    const first = await registerUser();
    const second = await registerUser();

    await client(first.token).call("saveSafetyLimits", {
      body: { maxPriceChangePercent: 10, maxZeroedPercent: 5 },
    });

    expect(await client(second.token).call("safetyLimits")).toEqual({
      maxPriceChangePercent: 50,
      maxZeroedPercent: 20,
    });
  });

  it("needs a signed-in user", async () => {
    const { client } = await createTestApp();
    const error = await failure(client().call("safetyLimits"));
    expect(error.status).toBe(401);
  });
});
