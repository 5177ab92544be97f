import {
  type AutoMapResult,
  type DriftSummary,
  type Job,
  type Mapping,
  SANDBOX_DEMO,
  type ScheduleInput,
  type SyncJobResult,
} from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type ConnectedApp, createConnectedApp } from "../../testing/connectors-harness.ts";
import { driftCsvLine, insertDriftList } from "../../testing/drift-fixtures.ts";
import { grantSubscription } from "../../testing/helpers.ts";

let connected: ConnectedApp | undefined;
afterEach(async () => {
  await connected?.close();
  connected = undefined;
});

const BOTH = { price: true, quantity: true };

/** Both demo catalogs pulled and auto-mapped, prices synced from the ERP's default price and MSRP. */
async function mappedApp() {
  connected = await createConnectedApp({ size: 20 });
  const app = connected;
  await app.connectShopify();
  await app.connectAcumatica();
  for (const name of ["syncShopifyProducts", "syncAcumaticaProducts", "autoMap"] as const) {
    const { job } = await app.api.call(name);
    const done = await app.waitForJob(job._id);
    expect(done.status).toBe("succeeded");
    if (name === "autoMap") expect((done.result as AutoMapResult).created).toBeGreaterThan(5);
  }
  await app.api.call("savePriceMapping", { body: { syncPrice: true, syncMsrp: true } });
  const { mappings, total } = await app.api.call("mappingHistory", { query: { limit: "100" } });
  expect(mappings).toHaveLength(total);
  return { app, mappings };
}

/** A sync job of every mapping (or a dry run), followed to its end. */
async function syncAll(app: ConnectedApp, options: { dryRun?: boolean } = {}): Promise<SyncJobResult> {
  const { job } = await app.api.call("syncMappings", { body: { syncOptions: BOTH, dryRun: options.dryRun } });
  return resultOf(app, job);
}

async function resultOf(app: ConnectedApp, job: Job): Promise<SyncJobResult> {
  const done = await app.waitForJob(job._id);
  expect(done.status, done.message ?? "").toBe("succeeded");
  return done.result as SyncJobResult;
}

/** Sets an ERP item's stock in each of the sandbox's warehouses (the total is three times it). */
async function setErpQuantity(app: ConnectedApp, inventoryId: string, perWarehouse: number) {
  for (const warehouseId of ["WHOLESALE", "RETAIL", "RETURNS"]) {
    const response = await fetch(`${app.origin}/__control/acumatica/quantities`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        inventoryId,
        warehouseId,
        onHand: perWarehouse,
        available: perWarehouse,
        availableForShipment: perWarehouse,
      }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }
}

/** Shopify's Admin API on the sandbox store, as a merchant's other tools would change it. */
async function shopifyGraphql<T>(app: ConnectedApp, query: string, variables: Record<string, unknown>) {
  const response = await fetch(
    `${app.origin}/shopify/${SANDBOX_DEMO.shopify.storeName}/admin/api/2025-04/graphql.json`,
    {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Shopify-Access-Token": SANDBOX_DEMO.shopify.accessToken,
      },
      body: JSON.stringify({ query, variables }),
    },
  );
  const body = (await response.json()) as { data?: T; errors?: unknown };
  if (!body.data) throw new Error(`Shopify GraphQL failed: ${JSON.stringify(body.errors)}`);
  return body.data;
}

async function shopifyVariant(app: ConnectedApp, variantId: string) {
  const data = await shopifyGraphql<{
    productVariant: { price: string; compareAtPrice: string | null; product: { id: string } };
  }>(app, "query($id: ID!) { productVariant(id: $id) { price compareAtPrice product { id } } }", {
    id: variantId,
  });
  return data.productVariant;
}

/** Changes a variant's price in Shopify behind the app's back. */
async function setShopifyPrice(app: ConnectedApp, variantId: string, price: string) {
  const { product } = await shopifyVariant(app, variantId);
  const data = await shopifyGraphql<{
    productVariantsBulkUpdate: { userErrors: { message: string }[] };
  }>(
    app,
    `mutation($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
      productVariantsBulkUpdate(productId: $productId, variants: $variants) { userErrors { message } }
    }`,
    { productId: product.id, variants: [{ id: variantId, price }] },
  );
  expect(data.productVariantsBulkUpdate.userErrors).toEqual([]);
}

/** A mapping whose quantity a sync writes (tracked, stocked, a stock item): its plan changes the quantity. */
async function quantityMappings(app: ConnectedApp, mappings: Mapping[], count: number): Promise<Mapping[]> {
  const found: Mapping[] = [];
  for (const mapping of mappings) {
    if (!mapping.acumaticaDetails.sku.startsWith("SKU-")) continue;
    await setErpQuantity(app, mapping.acumaticaDetails.sku, 111);
    const plan = await app.api.call("syncMapping", {
      params: { id: mapping._id },
      body: { syncOptions: { price: false, quantity: true }, dryRun: true },
    });
    if (plan.results[0]?.changes.some((change) => change.field === "quantity" && change.to === 333)) {
      found.push(mapping);
      if (found.length === count) return found;
    }
  }
  throw new Error(`fewer than ${count} mappings of the seed sync their quantity`);
}

function keyOf(item: { mappingId: string; field: string }) {
  return `${item.mappingId}:${item.field}`;
}

describe("GET /drift", () => {
  it("answers no check and zeros before the first one", async () => {
    const { app } = await mappedApp();

    const drift = await app.api.call("drift");

    expect(drift).toEqual({
      checkedAt: null,
      mappings: 0,
      drifted: 0,
      byField: { price: 0, compareAtPrice: 0, quantity: 0 },
      fields: [],
      source: null,
      items: [],
    } satisfies DriftSummary);
  });

  it("lists what a full dry run plans to change, field by field, and writes nothing", async () => {
    const { app, mappings } = await mappedApp();
    const mutations = app.shopify.state().mutations;

    const plan = await syncAll(app, { dryRun: true });
    const drift = await app.api.call("drift");

    expect(plan.truncated).toBe(false);
    const planned = plan.changes.flatMap((result) =>
      result.changes.map((change) => ({
        key: keyOf({ mappingId: result.mappingId, field: change.field }),
        shopify: change.from,
        erp: change.to,
      })),
    );
    expect(planned.length).toBeGreaterThan(5);
    expect(drift.items.map((item) => ({ key: keyOf(item), shopify: item.shopify, erp: item.erp }))).toEqual(
      expect.arrayContaining(planned),
    );
    expect(drift.items).toHaveLength(planned.length);
    expect(drift).toMatchObject({
      checkedAt: app.clock.now().toISOString(),
      mappings: mappings.length,
      drifted: new Set(plan.changes.map((result) => result.mappingId)).size,
      fields: ["price", "compareAtPrice", "quantity"],
      source: "dry-run",
    });
    for (const field of ["price", "compareAtPrice", "quantity"] as const) {
      const mappingsOfField = new Set(drift.items.filter((i) => i.field === field).map((i) => i.mappingId));
      expect(drift.byField[field], field).toBe(mappingsOfField.size);
    }
    const quantity = drift.items.find((item) => item.field === "quantity");
    expect(quantity?.location).toMatch(/^gid:\/\/shopify\/Location\/\d+$/);
    expect(drift.items.find((item) => item.field === "price")?.location).toBeNull();
    expect(app.shopify.state().mutations).toBe(mutations);
  });

  it("keeps after a full sync only what it could not write", async () => {
    const { app, mappings } = await mappedApp();
    const [refused] = await quantityMappings(app, mappings, 1);
    // Shopify refuses a quantity above 1,000,000,000: this one mapping's quantity cannot be written.
    await setErpQuantity(app, refused!.acumaticaDetails.sku, 400_000_000);

    const run = await syncAll(app);
    const drift = await app.api.call("drift");

    expect(run.failure).toBe(1);
    expect(drift).toMatchObject({ drifted: 1, source: "sync", mappings: mappings.length });
    expect(drift.items).toEqual([
      expect.objectContaining({
        mappingId: refused!._id,
        shopifySku: refused!.shopifyDetails.sku,
        acumaticaSku: refused!.acumaticaDetails.sku,
        field: "quantity",
        erp: 1_200_000_000,
      }),
    ]);
    const entry = await app.api.call("executionHistoryEntry", { params: { id: run.historyId! } });
    expect(entry).toMatchObject({ checkOnly: false, drifted: 1 });
  });

  it("finds what changed on either side since a sync, and only that", async () => {
    const { app, mappings } = await mappedApp();
    const [stock, priced] = await quantityMappings(app, mappings, 2);
    await syncAll(app);
    expect((await app.api.call("drift")).drifted).toBe(0);
    const before = await shopifyVariant(app, priced!.shopifyDetails.variantId);
    await setErpQuantity(app, stock!.acumaticaDetails.sku, 7);
    await setShopifyPrice(app, priced!.shopifyDetails.variantId, "999.99");
    app.clock.advance(60_000);

    await syncAll(app, { dryRun: true });
    const drift = await app.api.call("drift");

    expect(drift.checkedAt).toBe(app.clock.now().toISOString());
    const byKey = Object.fromEntries(drift.items.map((item) => [keyOf(item), [item.shopify, item.erp]]));
    expect(byKey[keyOf({ mappingId: stock!._id, field: "quantity" })]).toEqual([333, 21]);
    expect(byKey[keyOf({ mappingId: priced!._id, field: "price" })]).toEqual([999.99, Number(before.price)]);
    expect(Object.keys(byKey).sort()).toEqual(
      [
        keyOf({ mappingId: stock!._id, field: "quantity" }),
        keyOf({ mappingId: priced!._id, field: "price" }),
      ].sort(),
    );
    expect(drift).toMatchObject({ drifted: 2, byField: { price: 1, compareAtPrice: 0, quantity: 1 } });
  });
});

describe("runs of some mappings", () => {
  it("keep no list before a check of every mapping, and keep a check's list current after it", async () => {
    const { app, mappings } = await mappedApp();
    const [stock] = await quantityMappings(app, mappings, 1);
    await app.api.call("syncMapping", {
      params: { id: stock!._id },
      body: { syncOptions: BOTH, dryRun: true },
    });
    expect((await app.api.call("drift")).checkedAt).toBeNull();

    await syncAll(app, { dryRun: true });
    const checked = await app.api.call("drift");
    expect(checked.items.some((item) => item.mappingId === stock!._id)).toBe(true);
    app.clock.advance(60_000);
    await app.api.call("syncMapping", { params: { id: stock!._id }, body: { syncOptions: BOTH } });

    const after = await app.api.call("drift");
    expect(after.items.some((item) => item.mappingId === stock!._id)).toBe(false);
    expect(after).toMatchObject({ checkedAt: checked.checkedAt, drifted: checked.drifted - 1 });
  });

  it("drop a deleted mapping's drift", async () => {
    const { app } = await mappedApp();
    await syncAll(app, { dryRun: true });
    const before = await app.api.call("drift");
    const gone = before.items[0]!.mappingId;

    await app.api.call("deleteMapping", { params: { id: gone } });

    const after = await app.api.call("drift");
    expect(after.drifted).toBe(before.drifted - 1);
    expect(after.items.some((item) => item.mappingId === gone)).toBe(false);
  });
});

/** Every 15 minutes, every mapping, both fields: due at 10:15 on the test clock (which starts at 10:00). */
function everyQuarter(overrides: Partial<ScheduleInput> = {}): ScheduleInput {
  return {
    name: "Nightly check",
    schedule: { type: "minutely", minuteInterval: 15, time: null, day: null, interval: null },
    timezone: "UTC",
    mappingIds: [],
    isFullSync: true,
    syncOptions: BOTH,
    status: "active",
    ...overrides,
  };
}

describe("a check-only schedule", () => {
  it("reads both sides at its time, records the drift and its run in history, and writes nothing to Shopify", async () => {
    const { app, mappings } = await mappedApp();
    const plan = await syncAll(app, { dryRun: true });
    const priced = plan.changes.find((result) => result.changes.some((change) => change.field === "price"));
    const variantId = mappings.find((mapping) => mapping._id === priced?.mappingId)!.shopifyDetails.variantId;
    const before = await shopifyVariant(app, variantId);
    const schedule = await app.api.call("createSchedule", { body: everyQuarter({ checkOnly: true }) });
    expect(schedule.checkOnly).toBe(true);
    const mutations = app.shopify.state().mutations;

    app.clock.advance(15 * 60_000);
    const report = await app.app.tick();

    expect(report.ran).toEqual([schedule._id]);
    const drift = await app.api.call("drift");
    expect(drift).toMatchObject({
      checkedAt: "2026-11-21T10:15:00.000Z",
      source: "check",
      mappings: mappings.length,
      drifted: new Set(plan.changes.map((result) => result.mappingId)).size,
    });
    const history = await app.api.call("executionHistory");
    expect(history.total).toBe(1);
    expect(history.histories[0]).toMatchObject({
      trigger: "schedule",
      schedule: { _id: schedule._id, name: "Nightly check" },
      status: "completed",
      checkOnly: true,
      drifted: drift.drifted,
      failureCount: 0,
    });
    expect(app.shopify.state().mutations).toBe(mutations);
    expect(await shopifyVariant(app, variantId)).toEqual(before);
  });
});

describe("checkOnly on the schedule API", () => {
  it("is false when a new schedule leaves it out, and kept when an edit leaves it out", async () => {
    const { app } = await mappedApp();
    const plain = await app.api.call("createSchedule", { body: everyQuarter() });
    const check = await app.api.call("createSchedule", { body: everyQuarter({ checkOnly: true }) });
    expect(plain.checkOnly).toBe(false);

    // What a client that predates the field sends: the schedule without checkOnly.
    const edited = await app.api.call("updateSchedule", {
      params: { id: check._id },
      body: everyQuarter({ name: "Renamed check" }),
    });
    expect(edited).toMatchObject({ name: "Renamed check", checkOnly: true });
    const turnedOff = await app.api.call("updateSchedule", {
      params: { id: check._id },
      body: everyQuarter({ checkOnly: false }),
    });
    expect(turnedOff.checkOnly).toBe(false);

    const bad = await app.request("/api/mapping-schedule", {
      token: app.user.token,
      body: { ...everyQuarter(), checkOnly: "yes" },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      errors: [{ path: "checkOnly", message: "checkOnly must be true or false" }],
    });
  });
});

/** RFC 4180 records, parsed here on their own terms (not with the code under test). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      fields.push(field);
      field = "";
    } else if (char === "\r" && text[index + 1] === "\n") {
      fields.push(field);
      records.push(fields);
      fields = [];
      field = "";
      index += 1;
    } else field += char;
  }
  expect(field === "" && fields.length === 0, "the file ends with CRLF").toBe(true);
  return records;
}

const CSV_HEADER = ["mappingId", "shopifySku", "acumaticaSku", "field", "location", "shopify", "erp"];

describe("GET /drift.csv", () => {
  it("downloads every differing field as an RFC 4180 attachment, quoting what needs it", async () => {
    const { app } = await mappedApp();
    const first = await syncAll(app, { dryRun: true });
    const odd = first.changes[0]!.mappingId;
    const sku = 'Tee, "large"\nblue';
    await app.db.execute({ sql: "UPDATE mappings SET shopify_sku = ? WHERE id = ?", args: [sku, odd] });
    await syncAll(app, { dryRun: true });
    const drift = await app.api.call("drift");

    const response = await app.request("/api/drift.csv", { token: app.user.token });

    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="drift.csv"');
    const text = await response.text();
    expect(text).toContain(`,"Tee, ""large""\nblue",`);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual(CSV_HEADER);
    const money = (value: number | null) => (value === null ? "" : value.toFixed(2));
    expect(rows).toEqual(
      drift.items.map((item) => [
        item.mappingId,
        item.shopifySku,
        item.acumaticaSku,
        item.field,
        item.location ?? "",
        item.field === "quantity" ? String(item.shopify) : money(item.shopify),
        item.field === "quantity" ? String(item.erp) : money(item.erp),
      ]),
    );
    expect(rows.filter((row) => row[1] === sku).length).toBeGreaterThan(0);
    // The typed client hands the file over as text.
    expect(await app.api.call("driftCsv")).toBe(text);
  });

  it("streams a 100,000-row list in pieces, every row once, while GET /drift lists the first 1,000", async () => {
    const { app } = await mappedApp();
    const userId = app.user.user._id;
    const rows = 100_000;
    await insertDriftList(app.db, userId, rows);

    const summary = await app.api.call("drift");
    const response = await app.request("/api/drift.csv", { token: app.user.token });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let pieces = 0;
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pieces += 1;
      text += decoder.decode(value, { stream: true });
    }

    expect(summary).toMatchObject({ drifted: rows, byField: { quantity: rows } });
    expect(summary.items).toHaveLength(1_000);
    expect(summary.items.at(-1)?.mappingId).toBe("bulk-1000");
    expect(pieces).toBeGreaterThan(50);
    const lines = text.split("\r\n");
    expect(lines).toHaveLength(rows + 2);
    expect(lines[1]).toBe(driftCsvLine(1));
    expect(lines[rows]).toBe(driftCsvLine(rows));
    expect(new Set(lines.slice(1, -1)).size).toBe(rows);
  });
});

describe("one user's drift", () => {
  it("is never another user's to read, download, fix or replace", async () => {
    const { app } = await mappedApp();
    await syncAll(app, { dryRun: true });
    const mine = await app.api.call("drift");
    const stranger = await app.registerUser();
    await grantSubscription(app.db, stranger.user._id);
    const theirs = app.client(stranger.token);

    expect(await theirs.call("drift")).toMatchObject({ checkedAt: null, drifted: 0, items: [] });
    expect(await theirs.call("driftCsv")).toBe(`${CSV_HEADER.join(",")}\r\n`);
    const fix = await app.request("/api/drift/fix", { method: "POST", token: stranger.token });
    expect(fix.status).toBe(409);
    // The stranger's own check (of no mappings) replaces only the stranger's list.
    const { job } = await theirs.call("syncMappings", { body: { syncOptions: BOTH, dryRun: true } });
    expect((await app.waitForJob(job._id, stranger.token)).status).toBe("succeeded");
    expect(await theirs.call("drift")).toMatchObject({
      checkedAt: app.clock.now().toISOString(),
      mappings: 0,
    });

    expect(await app.api.call("drift")).toEqual(mine);
  });
});

describe("POST /drift/fix", () => {
  it("syncs exactly the drifted mappings, which then leave the list", async () => {
    const { app, mappings } = await mappedApp();
    const [stock, priced] = await quantityMappings(app, mappings, 2);
    await syncAll(app);
    const synced = await shopifyVariant(app, priced!.shopifyDetails.variantId);
    await setErpQuantity(app, stock!.acumaticaDetails.sku, 7);
    // Within the safety limit (50 %), so the fix is not held for review.
    await setShopifyPrice(app, priced!.shopifyDetails.variantId, (Number(synced.price) * 1.2).toFixed(2));
    await syncAll(app, { dryRun: true });
    const checked = await app.api.call("drift");
    expect(checked.drifted).toBe(2);

    const { job } = await app.api.call("fixDrift");
    const run = await resultOf(app, job);

    expect(run).toMatchObject({ dryRun: false, total: 2, success: 2, failure: 0 });
    const entry = await app.api.call("executionHistoryEntry", { params: { id: run.historyId! } });
    expect(entry).toMatchObject({ successCount: 2, failureCount: 0, drifted: 0 });
    expect((await shopifyVariant(app, priced!.shopifyDetails.variantId)).price).toBe(synced.price);
    expect(await app.api.call("drift")).toMatchObject({
      checkedAt: checked.checkedAt,
      drifted: 0,
      byField: { price: 0, compareAtPrice: 0, quantity: 0 },
      items: [],
    });
  });

  it("answers 409 when nothing differs", async () => {
    const { app } = await mappedApp();
    const response = await app.request("/api/drift/fix", { method: "POST", token: app.user.token });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      message: "Nothing to fix: no mapping differs from the ERP since the latest check.",
    });
  });
});

describe("a CSV download that a newer check overtakes", () => {
  it("fails instead of ending as a file that mixes two checks", async () => {
    const { app } = await mappedApp();
    await insertDriftList(app.db, app.user.user._id, 5_000);
    const response = await app.request("/api/drift.csv", { token: app.user.token });
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);

    // What a check recording its list does between two pages of the download.
    await app.db.batch(
      [
        { sql: "DELETE FROM drift_items WHERE user_id = ?", args: [app.user.user._id] },
        {
          sql: "UPDATE drift_checks SET checked_at = '2026-11-21T11:00:00.000Z' WHERE user_id = ?",
          args: [app.user.user._id],
        },
      ],
      "write",
    );
    const rest = async () => {
      for (;;) if ((await reader.read()).done) return;
    };

    await expect(rest()).rejects.toThrow("The drift list was replaced by a newer check while it was read");
  });
});
