import type { InStatement, ResultSet } from "@libsql/client";
import { describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/helpers.ts";
import {
  insertCatalogs,
  insertItem,
  insertVariant,
  registerSubscriber,
} from "../../testing/mapping-fixtures.ts";

/** Maps the given Shopify numbers to the same ERP numbers of an insertCatalogs catalog. */
async function mapNumbers(
  app: TestApp,
  api: Awaited<ReturnType<typeof registerSubscriber>>["api"],
  numbers: number[],
) {
  for (const n of numbers) {
    const digits = String(n).padStart(6, "0");
    await api.call("manualMap", {
      body: { shopifyVariantId: `gid://shopify/ProductVariant/${n}`, acumaticaProductId: `ERP-${digits}` },
    });
    app.clock.advance(1000);
  }
}

describe("GET /mapping/unmapped", () => {
  it("answers the first 10 of each list, SKU descending, with each list's total, when asked without parameters", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    await insertCatalogs(app.db, userId, { shopify: 25, acumatica: 30 });
    await mapNumbers(app, api, [25, 2]);

    const answer = await api.call("unmapped");
    expect(answer).toMatchObject({
      shopifyTotal: 23,
      acumaticaTotal: 28,
      shopifyOffset: 0,
      acumaticaOffset: 0,
      limit: 10,
    });
    expect(answer.shopify.map((row) => row.sku)).toEqual(
      [24, 23, 22, 21, 20, 19, 18, 17, 16, 15].map((n) => `SKU-0000${n}`),
    );
    expect(answer.shopify[0]).toEqual({
      _id: expect.any(String),
      variantId: "gid://shopify/ProductVariant/24",
      sku: "SKU-000024",
    });
    expect(answer.acumatica.map((row) => row.acumaticaId)).toEqual(
      [30, 29, 28, 27, 26, 24, 23, 22, 21, 20].map((n) => `ERP-0000${n}`),
    );
  });

  it("pages each list on its own by offset and limit, in either direction", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    await insertCatalogs(app.db, userId, { shopify: 30, acumatica: 12 });

    const answer = await api.call("unmapped", {
      query: { limit: "5", shopifyOffset: "27", acumaticaOffset: "5" },
    });
    expect(answer.shopify.map((row) => row.sku)).toEqual(["SKU-000003", "SKU-000002", "SKU-000001"]);
    expect(answer.acumatica.map((row) => row.sku)).toEqual(
      ["07", "06", "05", "04", "03"].map((n) => `ERP-0000${n}`),
    );
    expect(answer).toMatchObject({
      shopifyTotal: 30,
      acumaticaTotal: 12,
      shopifyOffset: 27,
      acumaticaOffset: 5,
    });

    const ascending = await api.call("unmapped", {
      query: { limit: "2", shopifyOffset: "1", acumaticaOffset: "40", sortDirection: "asc" },
    });
    expect(ascending.shopify.map((row) => row.sku)).toEqual(["SKU-000002", "SKU-000003"]);
    expect(ascending.acumatica).toEqual([]);
    expect(ascending.acumaticaTotal).toBe(12);
  });

  it("reads a window in the far half from the other end in the same order", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    await insertCatalogs(app.db, userId, { shopify: 40, acumatica: 1 });
    const all = await api.call("unmapped", { query: { limit: "100" } });

    for (const offset of [0, 18, 19, 20, 21, 33, 35, 39]) {
      const page = await api.call("unmapped", { query: { limit: "5", shopifyOffset: String(offset) } });
      expect(page.shopify).toEqual(all.shopify.slice(offset, offset + 5));
    }
  });

  it("searches the SKUs of both lists case-insensitively and literally, totals included", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    await insertVariant(app.db, userId, { sku: "Red-Shirt" });
    await insertVariant(app.db, userId, { sku: "red_hat" });
    await insertVariant(app.db, userId, { sku: "Blue" });
    await insertItem(app.db, userId, { sku: "RED-SHIRT" });
    await insertItem(app.db, userId, { sku: "Green" });

    const red = await api.call("unmapped", { query: { search: "  rEd " } });
    expect(red.shopify.map((row) => row.sku)).toEqual(["red_hat", "Red-Shirt"]);
    expect(red.acumatica.map((row) => row.sku)).toEqual(["RED-SHIRT"]);
    expect(red).toMatchObject({ shopifyTotal: 2, acumaticaTotal: 1 });
    const literal = await api.call("unmapped", { query: { search: "d_h" } });
    expect(literal.shopify.map((row) => row.sku)).toEqual(["red_hat"]);
    expect((await api.call("unmapped", { query: { search: "%" } })).shopifyTotal).toBe(0);
  });

  it("lists only the caller's products that no mapping uses", async () => {
    const app = await createTestApp();
    const me = await registerSubscriber(app);
    const other = await registerSubscriber(app);
    await insertCatalogs(app.db, me.userId, { shopify: 3, acumatica: 3 });
    await insertCatalogs(app.db, other.userId, { shopify: 4, acumatica: 4 });
    await mapNumbers(app, me.api, [3]);
    await mapNumbers(app, other.api, [1, 2]);

    const mine = await me.api.call("unmapped");
    expect(mine.shopify.map((row) => row.sku)).toEqual(["SKU-000002", "SKU-000001"]);
    expect(mine.acumatica.map((row) => row.sku)).toEqual(["ERP-000002", "ERP-000001"]);
    expect(mine).toMatchObject({ shopifyTotal: 2, acumaticaTotal: 2 });
  });

  it.each([
    ["limit=0", "limit", "limit must be at least 1"],
    ["limit=101", "limit", "limit must be at most 100"],
    ["limit=ten", "limit", "limit must be a whole number"],
    ["shopifyOffset=-1", "shopifyOffset", "shopifyOffset must be at least 0"],
    ["acumaticaOffset=1.5", "acumaticaOffset", "acumaticaOffset must be a whole number"],
    ["acumaticaOffset=20000000", "acumaticaOffset", "acumaticaOffset must be at most 10000000"],
    ["sortDirection=up", "sortDirection", "sortDirection must be asc or desc"],
    [`search=${"x".repeat(201)}`, "search", "search must be at most 200 characters"],
  ])("answers 400 naming the field for %s", async (query, field, message) => {
    const app = await createTestApp();
    const { token } = await registerSubscriber(app);
    const response = await app.request(`/api/mapping/unmapped?${query}`, { token });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors).toContainEqual({ path: field, message });
  });
});

describe("GET /mapping/unmapped for a 100,000-product user", () => {
  /** Every statement the app runs, with the rows it returned (execute and batch alike). */
  function recordStatements(db: TestApp["db"]) {
    const seen: { sql: string; args: unknown[]; rows: number }[] = [];
    const note = (statement: InStatement, result: ResultSet | undefined) =>
      seen.push({
        sql: typeof statement === "string" ? statement : statement.sql,
        args: typeof statement === "string" ? [] : Array.isArray(statement.args) ? statement.args : [],
        rows: result?.rows.length ?? 0,
      });
    const execute = db.execute.bind(db);
    const batch = db.batch.bind(db);
    db.execute = (async (statement: InStatement) => {
      const result = await execute(statement);
      note(statement, result);
      return result;
    }) as typeof db.execute;
    db.batch = (async (statements: InStatement[], mode?: "write" | "read" | "deferred") => {
      const results = await batch(statements, mode);
      for (const [index, statement] of statements.entries()) note(statement, results[index]);
      return results;
    }) as typeof db.batch;
    return seen;
  }

  it("answers one bounded page per list and never reads every row into memory or a sort", async () => {
    const app = await createTestApp();
    const { userId, api, token } = await registerSubscriber(app);
    await insertCatalogs(app.db, userId, { shopify: 100_000, acumatica: 100_000 });
    await mapNumbers(app, api, [100_000, 99_999, 5]);
    const seen = recordStatements(app.db);

    const windows = [
      "",
      "?limit=100&shopifyOffset=49990&acumaticaOffset=50010",
      "?limit=100&shopifyOffset=99900&acumaticaOffset=99990",
      "?limit=100&search=99&shopifyOffset=1000",
    ];
    const pages = [];
    for (const window of windows) {
      const response = await app.request(`/api/mapping/unmapped${window}`, { token });
      expect(response.status).toBe(200);
      const text = await response.text();
      // 100 rows a list is a few kilobytes; the whole catalog was 11.5 MB.
      expect(text.length).toBeLessThan(30_000);
      pages.push(JSON.parse(text).data);
    }
    const [first, middle, last, searched] = pages;
    expect(first.shopify.map((row: { sku: string }) => row.sku)).toEqual(
      [99_998, 99_997, 99_996, 99_995, 99_994, 99_993, 99_992, 99_991, 99_990, 99_989].map(
        (n) => `SKU-0${n}`,
      ),
    );
    expect(first).toMatchObject({ shopifyTotal: 99_997, acumaticaTotal: 99_997 });
    expect(middle.shopify).toHaveLength(100);
    expect(middle.shopify[0].sku).toBe("SKU-050008");
    expect(middle.acumatica[0].sku).toBe("ERP-049988");
    expect(last.shopify.map((row: { sku: string }) => row.sku).slice(-3)).toEqual([
      "SKU-000003",
      "SKU-000002",
      "SKU-000001",
    ]);
    expect(last.shopify).toHaveLength(97);
    expect(last.acumatica).toHaveLength(7);
    expect(searched.shopify).toHaveLength(100);
    expect(searched.shopify.every((row: { sku: string }) => row.sku.includes("99"))).toBe(true);

    const catalogReads = seen.filter((statement) => /_products\b/.test(statement.sql));
    expect(catalogReads.length).toBeGreaterThan(0);
    for (const statement of catalogReads) {
      expect(statement.rows, statement.sql).toBeLessThanOrEqual(100);
      const plan = await app.db.execute({
        sql: `EXPLAIN QUERY PLAN ${statement.sql}`,
        args: statement.args as never,
      });
      const steps = plan.rows.map((row) => String(row.detail));
      // Every catalog row is found through an index (no table scan) and comes out in index order.
      expect(
        steps.filter((step) => /^SCAN (?!CONSTANT ROW)/.test(step) || /TEMP B-TREE/.test(step)),
        steps.join(" | "),
      ).toEqual([]);
    }
  });
});
