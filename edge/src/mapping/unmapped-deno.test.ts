import { join } from "node:path";
import { createApiClient } from "@stockbridge/shared";
import { describe, expect, it, onTestFinished } from "vitest";
import { startEdgeProcess } from "../../testing/deno-harness.ts";
import { grantSubscription } from "../../testing/helpers.ts";
import { insertCatalogs } from "../../testing/mapping-fixtures.ts";
import { openDatabase } from "../db/client.ts";

const ROWS = 5_000;

/** The edge as users run it (`deno run edge/main.ts` on a libSQL file), billing pointed nowhere. */
async function startEdge() {
  const edge = await startEdgeProcess({
    env: { STRIPE_SECRET_KEY: "sk_test_unmapped", STRIPE_API_URL: "http://127.0.0.1:9" },
  });
  onTestFinished(() => edge.stop());
  return edge;
}

/** SKU numbers `count` long, descending from `from`: the order of an unmapped list's page. */
function descending(prefix: string, from: number, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix}-${String(from - index).padStart(6, "0")}`);
}

describe("GET /mapping/unmapped under Deno", () => {
  it("answers 16 parallel windows each with its own rows, and health alongside them", async () => {
    const { origin, dataDir } = await startEdge();
    const anonymous = createApiClient({ baseUrl: `${origin}/api`, getToken: () => null });
    const { token, user } = await anonymous.call("register", {
      body: { name: "Unmapped User", email: "unmapped@example.com", password: "Passw0rd" },
    });
    const db = openDatabase(`file:${join(dataDir, "stockbridge.db")}`);
    await db.execute("PRAGMA busy_timeout = 5000");
    await grantSubscription(db, user._id);
    await insertCatalogs(db, user._id, { shopify: ROWS, acumatica: ROWS });
    db.close();
    const api = createApiClient({ baseUrl: `${origin}/api`, getToken: () => token });

    const windows = Array.from({ length: 16 }, (_, n) => ({ shopify: n * 300, acumatica: 4_900 - n * 300 }));
    const [pages, health] = await Promise.all([
      Promise.all(
        windows.map((window) =>
          api.call("unmapped", {
            query: {
              limit: "100",
              shopifyOffset: String(window.shopify),
              acumaticaOffset: String(window.acumatica),
            },
          }),
        ),
      ),
      Promise.all(windows.map(() => anonymous.call("health"))),
    ]);

    for (const [index, window] of windows.entries()) {
      const page = pages[index];
      expect(page?.shopify.map((row) => row.sku)).toEqual(descending("SKU", ROWS - window.shopify, 100));
      expect(page?.acumatica.map((row) => row.sku)).toEqual(descending("ERP", ROWS - window.acumatica, 100));
      expect(page).toMatchObject({ shopifyTotal: ROWS, acumaticaTotal: ROWS });
    }
    expect(health.map((answer) => answer.status)).toEqual(windows.map(() => "ok"));
  });
});
