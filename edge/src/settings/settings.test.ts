import { ApiError } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../testing/helpers.ts";

describe("settings", () => {
  it("answers the defaults before anything is saved: Available -> Available, both price fields off", async () => {
    const { client, registerUser } = await createTestApp();
    const { token } = await registerUser();
    expect(await client(token).call("settings")).toEqual({
      quantityMapping: { acumaticaQuantity: "Available", shopifyQuantity: "Available" },
      priceMapping: { syncPrice: false, syncMsrp: false },
      // The default (primary location, every warehouse) is spelled out once the locations are known.
      locationMapping: { locations: [] },
    });
    expect(await client(token).call("quantityMapping")).toEqual({
      quantityMapping: { acumaticaQuantity: "Available", shopifyQuantity: "Available" },
    });
    expect(await client(token).call("priceMapping")).toEqual({
      priceMapping: { syncPrice: false, syncMsrp: false },
    });
  });

  it("saves the quantity mapping and keeps the price mapping as it was", async () => {
    const { client, registerUser } = await createTestApp();
    const { token } = await registerUser();
    await client(token).call("savePriceMapping", { body: { syncPrice: true, syncMsrp: false } });
    const saved = await client(token).call("saveQuantityMapping", {
      body: { acumaticaQuantity: "AvailableForShipping", shopifyQuantity: "OnHand" },
    });
    expect(saved).toEqual({
      quantityMapping: { acumaticaQuantity: "AvailableForShipping", shopifyQuantity: "OnHand" },
    });
    expect(await client(token).call("settings")).toEqual({
      quantityMapping: { acumaticaQuantity: "AvailableForShipping", shopifyQuantity: "OnHand" },
      priceMapping: { syncPrice: true, syncMsrp: false },
      locationMapping: { locations: [] },
    });
  });

  it("saves the price mapping and keeps the quantity mapping as it was", async () => {
    const { client, registerUser } = await createTestApp();
    const { token } = await registerUser();
    await client(token).call("saveQuantityMapping", {
      body: { acumaticaQuantity: "OnHand", shopifyQuantity: "Available" },
    });
    expect(
      await client(token).call("savePriceMapping", { body: { syncPrice: false, syncMsrp: true } }),
    ).toEqual({
      priceMapping: { syncPrice: false, syncMsrp: true },
    });
    expect(await client(token).call("priceMapping")).toEqual({
      priceMapping: { syncPrice: false, syncMsrp: true },
    });
    expect(await client(token).call("quantityMapping")).toEqual({
      quantityMapping: { acumaticaQuantity: "OnHand", shopifyQuantity: "Available" },
    });
  });

  it("refuses a price mapping with both fields off and saves nothing", async () => {
    const { client, registerUser } = await createTestApp();
    const { token } = await registerUser();
    await client(token).call("savePriceMapping", { body: { syncPrice: true, syncMsrp: true } });
    const error = await client(token)
      .call("savePriceMapping", { body: { syncPrice: false, syncMsrp: false } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toBe("At least one price field must be synced");
    expect(await client(token).call("priceMapping")).toEqual({
      priceMapping: { syncPrice: true, syncMsrp: true },
    });
  });

  it.each([
    [
      { acumaticaQuantity: "Reserved", shopifyQuantity: "Available" },
      "acumaticaQuantity must be one of Available, OnHand, AvailableForShipping",
    ],
    [
      { acumaticaQuantity: "Available", shopifyQuantity: "Committed" },
      "shopifyQuantity must be one of Available, OnHand",
    ],
    [{ acumaticaQuantity: "Available" }, "shopifyQuantity is required"],
  ])("answers 400 for the quantity mapping %j", async (body, message) => {
    const { request, registerUser } = await createTestApp();
    const { token } = await registerUser();
    const response = await request("/api/settings/quantity-mapping", { method: "PUT", token, body });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(message);
  });

  it("answers 400 for a price flag that is not a boolean", async () => {
    const { request, registerUser } = await createTestApp();
    const { token } = await registerUser();
    const response = await request("/api/settings/price-mapping", {
      method: "PUT",
      token,
      body: { syncPrice: "yes", syncMsrp: false },
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("syncPrice must be true or false");
  });

  it("keeps each user's settings apart", async () => {
    const { client, registerUser } = await createTestApp();
    const first = await registerUser();
    const second = await registerUser();
    await client(first.token).call("saveQuantityMapping", {
      body: { acumaticaQuantity: "OnHand", shopifyQuantity: "OnHand" },
    });
    expect((await client(second.token).call("settings")).quantityMapping).toEqual({
      acumaticaQuantity: "Available",
      shopifyQuantity: "Available",
    });
  });

  it("needs a signed-in user", async () => {
    const { request } = await createTestApp();
    expect((await request("/api/settings")).status).toBe(401);
    expect(
      (
        await request("/api/settings/price-mapping", {
          method: "PUT",
          body: { syncPrice: true, syncMsrp: true },
        })
      ).status,
    ).toBe(401);
  });
});
