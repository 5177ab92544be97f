import { MESSAGES, NO_PLAN_LIMITS, type User } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { decideAccess, type GuardSession, requiredAccess, safeRedirect } from "./guards.ts";

function session(status: string | null): GuardSession {
  const subscription: User["subscription"] =
    status === null
      ? null
      : {
          planId: "price_basic",
          planName: "Basic",
          status,
          currentPeriodEnd: null,
          cancelAtPeriodEnd: false,
          limits: NO_PLAN_LIMITS,
        };
  return { isAuthenticated: true, user: { subscription } };
}

const visitor: GuardSession = { isAuthenticated: false, user: null };

describe("decideAccess", () => {
  it("sends a signed-in user away from the anonymous pages to the dashboard", () => {
    expect(decideAccess(session(null), "anonymous", "/login")).toEqual({
      kind: "redirect",
      to: "/dashboard",
    });
  });

  it("lets a visitor open the anonymous pages", () => {
    expect(decideAccess(visitor, "anonymous", "/register")).toEqual({ kind: "allow" });
  });

  it("sends a visitor to /login and remembers where they were going", () => {
    expect(decideAccess(visitor, "user", "/settings?tab=mapping")).toEqual({
      kind: "redirect",
      to: "/login",
      redirectBack: "/settings?tab=mapping",
    });
  });

  it("tells a visitor of a gated page to log in", () => {
    const decision = decideAccess(visitor, "subscriber", "/mapping");
    expect(decision).toEqual({
      kind: "redirect",
      to: "/login",
      redirectBack: "/mapping",
      notice: { tone: "error", message: MESSAGES.access.loginRequired },
    });
  });

  it("sends a user without a subscription from a gated page to /subscription with the warning", () => {
    expect(decideAccess(session(null), "subscriber", "/products/shopify")).toEqual({
      kind: "redirect",
      to: "/subscription",
      notice: { tone: "warning", message: "A subscription is required to access this service." },
    });
  });

  it("treats a canceled or past-due subscription like none", () => {
    expect(decideAccess(session("canceled"), "subscriber", "/mapping")).toMatchObject({
      to: "/subscription",
    });
    expect(decideAccess(session("past_due"), "subscriber", "/mapping")).toMatchObject({
      to: "/subscription",
    });
  });

  it("lets active and trialing subscribers into gated pages", () => {
    expect(decideAccess(session("active"), "subscriber", "/mapping")).toEqual({ kind: "allow" });
    expect(decideAccess(session("trialing"), "subscriber", "/execution-history")).toEqual({ kind: "allow" });
  });

  it("lets any signed-in user into the authenticated pages", () => {
    expect(decideAccess(session(null), "user", "/subscription")).toEqual({ kind: "allow" });
  });

  it("does not remember an unsafe origin", () => {
    expect(decideAccess(visitor, "user", "//evil.example/x")).toEqual({ kind: "redirect", to: "/login" });
  });
});

describe("requiredAccess", () => {
  it("takes the strictest access any matched route declares", () => {
    expect(requiredAccess([undefined, "subscriber", undefined])).toBe("subscriber");
    expect(requiredAccess([undefined, undefined])).toBe("user");
    expect(requiredAccess(["anonymous"])).toBe("anonymous");
  });
});

describe("safeRedirect", () => {
  it("keeps a path on this site with its query", () => {
    expect(safeRedirect("/products/acumatica?page=2")).toBe("/products/acumatica?page=2");
  });

  it("refuses full URLs, protocol-relative and backslash tricks", () => {
    expect(safeRedirect("https://evil.example/")).toBeUndefined();
    expect(safeRedirect("//evil.example/")).toBeUndefined();
    expect(safeRedirect("/\\evil.example")).toBeUndefined();
    expect(safeRedirect("/ok\n")).toBeUndefined();
  });

  it("never leads back to the sign-in pages", () => {
    expect(safeRedirect("/login?redirect=/x")).toBeUndefined();
    expect(safeRedirect("/register")).toBeUndefined();
  });

  it("ignores anything that is not text", () => {
    expect(safeRedirect(undefined)).toBeUndefined();
    expect(safeRedirect(42)).toBeUndefined();
  });
});
