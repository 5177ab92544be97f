import { NO_PLAN_LIMITS, type User } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { makeUser } from "../../../testing/users.ts";
import { checklistProgress, computeChecklist } from "./checklist.ts";

function connected(): Pick<User, "shopifyConnection" | "acumaticaConnection"> {
  const status = { isVerified: true, lastTestedAt: null, lastTestError: null };
  return {
    shopifyConnection: {
      name: "Store",
      apiVersion: "2025-04",
      storeName: "demo",
      accessTokenSet: true,
      servedApiVersion: null,
      deprecationNotice: null,
      currencyCode: null,
      ...status,
    },
    acumaticaConnection: {
      name: "ERP",
      apiVersion: "23.200.001",
      instanceUri: "https://erp.example",
      endpointName: "Default",
      username: "admin",
      company: "Co",
      maxSessions: 2,
      passwordSet: true,
      baseCurrency: null,
      ...status,
    },
  };
}

describe("computeChecklist", () => {
  it("shows nothing done for a new user, with product steps locked", () => {
    const items = computeChecklist(makeUser(), {});
    expect(items.map((item) => item.done)).toEqual([false, false, false, false, false]);
    expect(items.filter((item) => item.locked).map((item) => item.id)).toEqual(["products", "mappings"]);
    expect(items.map((item) => item.to)).toEqual([
      "/subscription",
      "/settings",
      "/settings",
      "/products/shopify",
      "/mapping",
    ]);
  });

  it("ticks each step from real state", () => {
    const subscription = {
      planId: "p",
      planName: null,
      status: "trialing",
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      limits: NO_PLAN_LIMITS,
    };
    const user = makeUser({ subscription, ...connected() });
    const items = computeChecklist(user, { shopifyProducts: 12, acumaticaProducts: 30, mappings: 4 });
    expect(items.every((item) => item.done)).toBe(true);
    expect(checklistProgress(items)).toEqual({ done: 5, total: 5 });
  });

  it("needs products on both sides and treats unknown counts as not done", () => {
    const items = computeChecklist(makeUser(), {
      shopifyProducts: 12,
      acumaticaProducts: undefined,
      mappings: 0,
    });
    expect(items.find((item) => item.id === "products")?.done).toBe(false);
    expect(items.find((item) => item.id === "mappings")?.done).toBe(false);
  });

  it("does not count an unverified connection", () => {
    const { shopifyConnection } = connected();
    const user = makeUser({
      shopifyConnection: shopifyConnection && { ...shopifyConnection, isVerified: false },
    });
    expect(computeChecklist(user, {}).find((item) => item.id === "shopify")?.done).toBe(false);
  });
});
