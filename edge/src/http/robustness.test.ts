import { generateCatalog } from "@stockbridge/sandbox";
import { contract, type EndpointName } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type ConnectedApp, createConnectedApp } from "../../testing/connectors-harness.ts";
import { createTestApp, grantSubscription } from "../../testing/helpers.ts";

// "No input a user can send produces a 500": every endpoint of the contract, signed in with an active
// subscription, gets hostile bodies, queries and path parameters. Outside systems are not configured,
// so nothing here may reach one; answers must be a clear 4xx (or 503 where billing is not configured).
const HOSTILE_BODIES: unknown[] = [
  "not json",
  "[]",
  "null",
  "42",
  '"text"',
  JSON.stringify({ __proto__: { admin: true }, constructor: { prototype: {} } }),
  JSON.stringify({
    email: ["a"],
    password: { $gt: "" },
    name: null,
    priceId: 5,
    token: 1,
    syncOptions: "yes",
  }),
  JSON.stringify({ mappingIds: "x", shopifyVariantId: {}, acumaticaProductId: [], schedule: [], status: 7 }),
  JSON.stringify({ name: "x".repeat(100_000), storeName: "../../etc", instanceUri: "file:///etc/passwd" }),
  JSON.stringify({ syncOptions: { price: "true", quantity: 1 }, dryRun: "no", cancelAtPeriodEnd: "false" }),
];
const HOSTILE_QUERIES = [
  "?page=-1&limit=0",
  "?page=abc&limit=1e9",
  "?page=1.5&limit=NaN&sortBy=sku;DROP TABLE users&sortDirection=sideways",
  "?search=%25%27%22%3B--&page=999999999",
  `?search=${"x".repeat(300)}`,
  "?page[]=1&limit[a]=2",
];
const HOSTILE_IDS = [
  "..%2F..%2Fetc",
  "%00",
  "x".repeat(200),
  "' OR 1=1 --",
  "00000000-0000-0000-0000-000000000000",
];

function pathFor(path: string, id: string): string {
  return `/api${path.replace(/:id/g, id)}`;
}

describe("hostile input", () => {
  const names = Object.keys(contract) as EndpointName[];

  it.each(names)("never answers 500 on %s", async (name) => {
    const endpoint = contract[name];
    const { request, registerUser, db } = await createTestApp();
    const user = await registerUser();
    await grantSubscription(db, user.user._id);
    const ids = endpoint.path.includes(":id") ? HOSTILE_IDS : ["-"];
    for (const id of ids) {
      const base = pathFor(endpoint.path, id);
      const attempts: { path: string; body?: unknown }[] = [];
      if (endpoint.method === "GET" || endpoint.method === "DELETE") {
        for (const query of ["", ...HOSTILE_QUERIES]) attempts.push({ path: base + query });
      } else {
        for (const body of HOSTILE_BODIES) attempts.push({ path: base, body });
      }
      for (const attempt of attempts) {
        const response = await request(attempt.path, {
          method: endpoint.method,
          token: user.token,
          body: attempt.body,
        });
        expect(
          response.status,
          `${endpoint.method} ${attempt.path} ${String(attempt.body).slice(0, 80)}`,
        ).not.toBe(500);
        expect(response.status).toBeLessThan(600);
        const answer = await response.json().catch(() => null);
        if (response.status >= 400)
          expect(typeof answer?.message, `${endpoint.method} ${attempt.path} has a message`).toBe("string");
      }
    }
  });

  it("answers a malformed Authorization header with 401, not 500", async () => {
    const { request } = await createTestApp();
    for (const header of [
      "Bearer",
      "Bearer ",
      "Bearer a.b",
      "Bearer ....",
      "Basic abc",
      `Bearer ${"x".repeat(5000)}`,
    ]) {
      const response = await request("/api/auth/me", { headers: { Authorization: header } });
      expect(response.status).toBe(401);
    }
  });
});

// Every search parameter, over HTTP, against catalogs whose SKUs hold the characters that are syntax
// somewhere (FTS5 queries, LIKE patterns, SQL strings): no 500, and the plain ones find what
// "SKU contains the text" says.
const CRAFTED_SKUS = [
  'SAY"HI"-1',
  "STAR*-2",
  "NEAR(X)-3",
  "AND-OR-NOT-4",
  "^CARET-5",
  "PCT%_\\BS-6",
  "O'BRIEN-7",
  "ÜBER-ß-8",
  "商品-9",
  "📦BOX👩‍👩‍👧-10",
  "sku_key:X-11",
  "{SKU}-12",
];
const CONTROL_SEARCHES = [
  "a\u0000bc",
  "abc\u0000",
  "\u0000\u0000\u0000",
  "a\u0001bc",
  "sk\tu",
  "sk\nu",
  "abc\u007f",
  "abc\u0085",
];
const PLAIN_SEARCHES = [
  '"',
  '""',
  'y"h',
  '"hi"',
  "*",
  "star*",
  "ar*-",
  "NEAR(",
  "near(x)",
  "NEAR(a b)",
  "AND",
  "and-or",
  "OR",
  "NOT",
  "^",
  "^caret",
  "-",
  "+",
  ":",
  "sku_key:",
  "{sku}",
  "(",
  ")",
  "%",
  "_",
  "\\",
  "%_\\",
  "'",
  "o'b",
  "' OR 1=1 --",
  "'; DROP TABLE users; --",
  "über",
  "ÜBER-SS",
  "ß-8",
  "商品",
  "📦",
  "📦box👩‍👩‍👧",
  "👩‍👩‍👧-10",
  "\u{1F600}\u{1F600}\u{1F600}",
  "\u200b\u200b\u200b",
  "x".repeat(200),
  "ku-0",
  "SKU-0001",
];

describe("hostile search text", () => {
  let app: ConnectedApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function craftedApp() {
    const catalog = generateCatalog({ seed: 42, size: 300 });
    // The same crafted SKU on a variant and on the ERP item that shared its SKU, so auto mapping pairs them.
    const items = new Map(catalog.acumatica.items.map((item) => [item.inventoryId, item]));
    const pairs = catalog.shopify.products
      .flatMap((product) => product.variants)
      .flatMap((variant) => {
        const item = variant.sku ? items.get(variant.sku) : undefined;
        return item ? [{ variant, item }] : [];
      });
    CRAFTED_SKUS.forEach((sku, index) => {
      const pair = pairs[index * 7];
      if (!pair) throw new Error(`no variant and item pair at ${index * 7}`);
      pair.variant.sku = sku;
      pair.item.inventoryId = sku;
    });
    // Two crafted SKUs on one side only: auto mapping leaves them (and their old partners) unmapped,
    // so the unmapped lists' searches have something to find.
    const lone = pairs[CRAFTED_SKUS.length * 7];
    const loneItem = pairs[CRAFTED_SKUS.length * 7 + 1];
    if (!lone || !loneItem) throw new Error("no pair left for the unmapped SKUs");
    lone.variant.sku = 'SAY"HI"-LONE';
    loneItem.item.inventoryId = "STAR*-LONE";
    const target = await createConnectedApp({ size: 300 });
    app = target;
    target.shopify.reset(catalog);
    target.acumatica.reset(catalog);
    await target.connectShopify();
    await target.connectAcumatica();
    for (const name of ["syncShopifyProducts", "syncAcumaticaProducts", "autoMap"] as const) {
      const { job } = await target.api.call(name);
      expect((await target.waitForJob(job._id)).status).toBe("succeeded");
    }
    // Searches go through the trigram index once a pull's follow-up has written its entries.
    const unindexed = async () =>
      Number(
        (await target.db.execute("SELECT count(*) AS n FROM catalog_state WHERE unindexed_from IS NOT NULL"))
          .rows[0]?.n,
      );
    while ((await unindexed()) > 0) await target.app.tick();
    await target.api.call("createSchedule", {
      body: {
        name: 'Nightly "NEAR(x)" 100% ⏰',
        schedule: { type: "daily", time: "00:00", day: null, interval: null, minuteInterval: null },
        timezone: "UTC",
        isFullSync: true,
        syncOptions: { price: true, quantity: false },
      },
    });
    return target;
  }

  /** Every SKU of a list, page by page. */
  async function everySku(target: ConnectedApp, name: "shopifyProducts" | "acumaticaProducts") {
    const skus: string[] = [];
    for (let page = 1; ; page += 1) {
      const answer = await target.api.call(name, { query: { page: String(page), limit: "100" } });
      skus.push(...answer.products.map((product) => product.sku));
      if (page >= answer.totalPages) return skus;
    }
  }

  const asciiLower = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());

  it("never answers 500 to any search parameter, refuses control characters by name and finds the rest literally", async () => {
    const target = await craftedApp();
    const catalogs = {
      shopifyProducts: await everySku(target, "shopifyProducts"),
      acumaticaProducts: await everySku(target, "acumaticaProducts"),
    };
    expect(catalogs.shopifyProducts).toEqual(expect.arrayContaining(CRAFTED_SKUS));
    expect(catalogs.acumaticaProducts).toEqual(expect.arrayContaining(CRAFTED_SKUS));
    const mappings = (await target.api.call("mappingHistory", { query: { limit: "100" } })).mappings;
    const mapped = async (page: number) =>
      (await target.api.call("mappingHistory", { query: { page: String(page), limit: "100" } })).mappings;
    for (let page = 2; mappings.length % 100 === 0 && (await mapped(page)).length > 0; page += 1)
      mappings.push(...(await mapped(page)));
    expect(mappings.map((m) => m.shopifyDetails.sku)).toEqual(expect.arrayContaining(CRAFTED_SKUS));
    // Both unmapped lists in full (no search), page by page: what each search must find in them.
    const unmappedSkus = { shopify: [] as string[], acumatica: [] as string[] };
    for (let offset = 0; ; offset += 100) {
      const page = await target.api.call("unmapped", {
        query: { limit: "100", shopifyOffset: String(offset), acumaticaOffset: String(offset) },
      });
      unmappedSkus.shopify.push(...page.shopify.map((product) => product.sku));
      unmappedSkus.acumatica.push(...page.acumatica.map((product) => product.sku));
      if (offset + 100 >= Math.max(page.shopifyTotal, page.acumaticaTotal)) break;
    }
    expect(unmappedSkus.shopify).toContain('SAY"HI"-LONE');
    expect(unmappedSkus.acumatica).toContain("STAR*-LONE");
    const paths = {
      shopifyProducts: "/api/shopify/products?limit=100&",
      acumaticaProducts: "/api/acumatica/products?limit=100&",
      mappingHistory: "/api/mapping/history?limit=100&",
      mappingSelector: "/api/mapping/selector?",
      listSchedules: "/api/mapping-schedule?",
      unmapped: "/api/mapping/unmapped?limit=100&",
    };
    const ask = async (path: string, encoded: string) => {
      const response = await target.request(`${path}search=${encoded}`, { token: target.user.token });
      expect(response.status, `${path}search=${encoded}`).not.toBe(500);
      return { status: response.status, body: await response.json() };
    };

    // Every endpoint of the contract that takes a search is sent all of it.
    const searchable = Object.entries(contract)
      .filter(([, endpoint]) => {
        const query: { entries?: Record<string, unknown> } | undefined =
          "query" in endpoint ? endpoint.query : undefined;
        return query?.entries !== undefined && "search" in query.entries;
      })
      .map(([name]) => name);
    expect(Object.keys(paths).sort()).toEqual(searchable.sort());
    for (const [name, path] of Object.entries(paths)) {
      for (const search of CONTROL_SEARCHES) {
        const answer = await ask(path, encodeURIComponent(search));
        expect(answer, `${name} ${JSON.stringify(search)}`).toMatchObject({
          status: 400,
          body: { message: "search must not contain control characters", code: "VALIDATION_FAILED" },
        });
      }
      const tooLong = await ask(path, "x".repeat(201));
      expect(tooLong).toMatchObject({
        status: 400,
        body: { message: "search must be at most 200 characters" },
      });
      // Broken percent-encodings and a lone surrogate's bytes: any clear answer but a 500.
      for (const raw of ["%", "%zz", "%ED%A0%80", "%FF%FE", "a%00bc%"]) {
        expect((await ask(path, raw)).status, `${name} ${raw}`).toBeLessThan(500);
      }
      for (const search of PLAIN_SEARCHES) {
        const answer = await ask(path, encodeURIComponent(search));
        const label = `${name} ${JSON.stringify(search)}`;
        expect(answer.status, label).toBe(200);
        const term = search.trim();
        if (name === "shopifyProducts" || name === "acumaticaProducts") {
          // Catalog SKUs match case-insensitively (JavaScript's lowercase on both sides).
          const expected = catalogs[name].filter((sku) => sku.toLowerCase().includes(term.toLowerCase()));
          expect(answer.body.data.total, label).toBe(expected.length);
          const skus: string[] = answer.body.data.products.map((product: { sku: string }) => product.sku);
          expect(
            skus.every((sku) => expected.includes(sku)),
            label,
          ).toBe(true);
          expect(skus.length, label).toBe(Math.min(expected.length, 100));
        } else if (name === "unmapped") {
          // Unmapped products match by SKU, lowercased on both sides: exactly the unmapped SKUs containing it.
          for (const side of ["shopify", "acumatica"] as const) {
            const expected = unmappedSkus[side].filter((sku) =>
              sku.toLowerCase().includes(term.toLowerCase()),
            );
            const skus: string[] = answer.body.data[side].map((product: { sku: string }) => product.sku);
            expect(answer.body.data[`${side}Total`], `${label} ${side}`).toBe(expected.length);
            if (expected.length <= 100)
              expect([...skus].sort(), `${label} ${side}`).toEqual([...expected].sort());
            else
              expect(
                skus.filter((sku) => !expected.includes(sku)),
                `${label} ${side}`,
              ).toEqual([]);
          }
        } else if (name === "listSchedules") {
          const found = asciiLower('Nightly "NEAR(x)" 100% ⏰').includes(asciiLower(term));
          expect(answer.body.data.total, label).toBe(found ? 1 : 0);
        } else {
          // Mapping lists match either SKU with LIKE: case-insensitive for ASCII letters only.
          const expected = mappings.filter((m) =>
            [m.shopifyDetails.sku, m.acumaticaDetails.sku].some((sku) =>
              asciiLower(sku).includes(asciiLower(term)),
            ),
          );
          const ids: string[] = answer.body.data.mappings.map((m: { _id: string }) => m._id);
          if (name === "mappingHistory") expect(answer.body.data.total, label).toBe(expected.length);
          expect(ids.length, label).toBe(Math.min(expected.length, name === "mappingSelector" ? 20 : 100));
          expect(
            ids.every((id) => expected.some((m) => m._id === id)),
            label,
          ).toBe(true);
        }
      }
    }
  });
});

describe("control characters in what a user saves", () => {
  it("refuses them in the email of a registration and in a schedule's name, with a 400 naming the field", async () => {
    const { request, registerUser, db } = await createTestApp();
    for (const email of ["a\u0000b@example.com", "ab@exa\u0085mple.com", "ab@example.com\u0000"]) {
      const response = await request("/api/auth/register", {
        body: { name: "Test User", email, password: "Passw0rd" },
      });
      expect(response.status).toBe(400);
      expect((await response.json()).errors).toEqual([
        { path: "email", message: "Email must not contain control characters" },
      ]);
    }
    // A person's name already allows letters and spaces only.
    const named = await request("/api/auth/register", {
      body: { name: "Test\u0000User", email: "nul@example.com", password: "Passw0rd" },
    });
    expect((await named.json()).errors).toEqual([
      { path: "name", message: "Name should only contain letters and spaces" },
    ]);
    const users = await db.execute("SELECT count(*) AS n FROM users");
    expect(Number(users.rows[0]?.n)).toBe(0);

    const user = await registerUser();
    await grantSubscription(db, user.user._id);
    const schedule = (name: string) => ({
      name,
      schedule: { type: "daily", time: "00:00", day: null, interval: null, minuteInterval: null },
      timezone: "UTC",
      isFullSync: true,
      syncOptions: { price: true, quantity: false },
    });
    for (const name of ["Night\u0000ly", "Nightly\u001b[2J", "Night\tly", "Night\u009bly"]) {
      const response = await request("/api/mapping-schedule", { token: user.token, body: schedule(name) });
      expect(response.status).toBe(400);
      expect((await response.json()).errors).toEqual([
        { path: "name", message: "Schedule name must not contain control characters" },
      ]);
    }
    const created = await request("/api/mapping-schedule", {
      token: user.token,
      body: schedule("Nightly ⏰ prices"),
    });
    expect(created.status).toBe(200);
    const listed = await request("/api/mapping-schedule", { token: user.token });
    expect((await listed.json()).data.schedules.map((s: { name: string }) => s.name)).toEqual([
      "Nightly ⏰ prices",
    ]);
  });
});
