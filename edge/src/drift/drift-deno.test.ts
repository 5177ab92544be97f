import { join } from "node:path";
import { createApiClient } from "@stockbridge/shared";
import { describe, expect, it, onTestFinished } from "vitest";
import { startEdgeProcess } from "../../testing/deno-harness.ts";
import { driftCsvLine, insertDriftList } from "../../testing/drift-fixtures.ts";
import { grantSubscription } from "../../testing/helpers.ts";
import { openDatabase } from "../db/client.ts";

const ROWS = 100_000;

describe("GET /drift.csv under Deno", () => {
  it("streams a 100,000-row list over HTTP as a CSV attachment without a length known up front", async () => {
    const edge = await startEdgeProcess({
      env: { STRIPE_SECRET_KEY: "sk_test_drift", STRIPE_API_URL: "http://127.0.0.1:9" },
    });
    onTestFinished(() => edge.stop());
    const anonymous = createApiClient({ baseUrl: `${edge.origin}/api`, getToken: () => null });
    const { token, user } = await anonymous.call("register", {
      body: { name: "Drift User", email: "drift@example.com", password: "Passw0rd" },
    });
    const db = openDatabase(`file:${join(edge.dataDir, "stockbridge.db")}`);
    await db.execute("PRAGMA busy_timeout = 5000");
    await grantSubscription(db, user._id);
    await insertDriftList(db, user._id, ROWS);
    db.close();

    const response = await fetch(`${edge.origin}/api/drift.csv`, {
      headers: { Authorization: `Bearer ${token}` },
    });

    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="drift.csv"');
    // Sent as it is read: the server never held the whole file to measure it.
    expect(response.headers.get("content-length")).toBeNull();
    expect(response.headers.get("transfer-encoding")).toBe("chunked");
    const lines = (await response.text()).split("\r\n");
    expect(lines[0]).toBe("mappingId,shopifySku,acumaticaSku,field,location,shopify,erp");
    expect(lines).toHaveLength(ROWS + 2);
    expect(lines[ROWS]).toBe(driftCsvLine(ROWS));
    expect(new Set(lines.slice(1, -1)).size).toBe(ROWS);
  });
});
