import { describe, expect, it } from "vitest";
import { AcumaticaError } from "../connectors/acumatica/failures.ts";
import { ShopifyError } from "../connectors/shopify/errors.ts";
import { UpstreamError } from "../errors.ts";
import { alertKindForRun, refusedConnection } from "./alert-kind.ts";

const counts = (successCount: number, failureCount: number) => ({ successCount, failureCount });

describe("alertKindForRun", () => {
  it("reads today's statuses: completed with failures is partial, or failed when nothing succeeded", () => {
    expect(alertKindForRun("completed", counts(5, 0))).toBeNull();
    expect(alertKindForRun("completed", counts(0, 0))).toBeNull();
    expect(alertKindForRun("completed", counts(4, 1))).toBe("partial");
    expect(alertKindForRun("completed", counts(0, 3))).toBe("failed");
    expect(alertKindForRun("failed", counts(0, 3))).toBe("failed");
    expect(alertKindForRun("running", counts(0, 0))).toBeNull();
  });

  it("reads the honest statuses: partial, failed and held", () => {
    expect(alertKindForRun("partial", counts(4, 1))).toBe("partial");
    expect(alertKindForRun("partial", counts(0, 1))).toBe("failed");
    expect(alertKindForRun("failed", counts(2, 5))).toBe("failed");
    expect(alertKindForRun("held", counts(0, 0))).toBe("held");
  });
});

describe("refusedConnection", () => {
  it("names the system that turned the connection away", () => {
    expect(refusedConnection(new ShopifyError("invalid access token", "unauthorized"))).toBe("Shopify");
    expect(refusedConnection(new ShopifyError("unreachable host", "unreachable"))).toBe("Shopify");
    expect(refusedConnection(new AcumaticaError("invalid credentials", "invalid-credentials"))).toBe(
      "Acumatica",
    );
  });

  it("leaves other failures to the plain failed alert", () => {
    expect(refusedConnection(new ShopifyError("Shopify rejected the request", "graphql"))).toBeNull();
    expect(refusedConnection(new AcumaticaError("access denied to StockItem", "rejected"))).toBeNull();
    expect(refusedConnection(new UpstreamError("Shopify", "something"))).toBeNull();
    expect(refusedConnection(new Error("boom"))).toBeNull();
    expect(refusedConnection(undefined)).toBeNull();
  });
});
