import type { InStatement } from "@libsql/client";
import type { ScheduleInput } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { createTestApp, failure, grantSubscription, type TestApp } from "../../testing/helpers.ts";
import { insertItem, insertVariant, registerSubscriber } from "../../testing/mapping-fixtures.ts";
import { type Db, openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";

/** The test clock starts at 2026-11-21T10:00:00Z (helpers.ts). */
const NOW = Date.parse("2026-11-21T10:00:00Z");
const HOUR = 3_600_000;

interface RunRow {
  hoursAgo: number;
  status?: string;
  success?: number;
  failure?: number;
  skipped?: number;
  schedule?: { id: string; name: string };
}

/** Execution history rows as runs leave them, started `hoursAgo` before the test clock's now. */
async function insertRuns(db: TestApp["db"], userId: string, runs: RunRow[]): Promise<string[]> {
  const ids: string[] = [];
  for (const run of runs) {
    const id = crypto.randomUUID();
    ids.push(id);
    const start = new Date(NOW - run.hoursAgo * HOUR).toISOString();
    await db.execute({
      sql: `INSERT INTO execution_history (id, user_id, schedule_id, schedule_name, trigger, start_date, end_date,
              success_count, failure_count, skipped_count, status)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      args: [
        id,
        userId,
        run.schedule?.id ?? null,
        run.schedule?.name ?? null,
        run.schedule ? "schedule" : "manual",
        start,
        new Date(Date.parse(start) + 60_000).toISOString(),
        run.success ?? 0,
        run.failure ?? 0,
        run.skipped ?? 0,
        run.status ?? "completed",
      ],
    });
  }
  return ids;
}

function daily(name: string, time: string, overrides: Partial<ScheduleInput> = {}): ScheduleInput {
  return {
    name,
    schedule: { type: "daily", time, day: null, interval: null, minuteInterval: null },
    timezone: "UTC",
    mappingIds: [],
    isFullSync: true,
    syncOptions: { price: true, quantity: true },
    status: "active",
    ...overrides,
  };
}

describe("GET /dashboard", () => {
  it("answers the last run, failures, catalog and mapping counts and 30 days of runs from the user's rows", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    const nightly = await api.call("createSchedule", { body: daily("Nightly", "02:00") });
    await api.call("createSchedule", { body: daily("Later", "23:00") });
    await api.call("createSchedule", { body: daily("Off", "11:00", { status: "inactive" }) });
    const runs = await insertRuns(app.db, userId, [
      { hoursAgo: 24 * 40, failure: 9, status: "failed" }, // older than 30 days: in no figure
      { hoursAgo: 24 * 3 + 1, success: 10, failure: 2, skipped: 1 }, // 2026-11-18 09:00
      { hoursAgo: 30, status: "failed", failure: 4 }, // 2026-11-20 04:00
      { hoursAgo: 2, success: 7, skipped: 3, schedule: { id: nightly._id, name: "Nightly" } }, // 2026-11-21 08:00
      { hoursAgo: 1, success: 5, failure: 1 }, // 2026-11-21 09:00 (the newest by start)
    ]);
    // Three variants of two products, two items; one pair mapped.
    const product = "gid://shopify/Product/1";
    const variant = await insertVariant(app.db, userId, { sku: "TEE-S", productId: product });
    await insertVariant(app.db, userId, { sku: "TEE-M", productId: product });
    await insertVariant(app.db, userId, { sku: "MUG" });
    const item = await insertItem(app.db, userId, { sku: "TEE-S" });
    await insertItem(app.db, userId, { sku: "CAP" });
    await app.db.execute({
      sql: `INSERT INTO catalog_state (user_id, system, total, version, last_synced) VALUES (?, 'shopify', 3, 1, ?), (?, 'acumatica', 2, 1, ?)`,
      args: [userId, "2026-11-21T09:00:00.000Z", userId, "2026-11-21T09:00:00.000Z"],
    });
    await api.call("manualMap", {
      body: { shopifyVariantId: variant.variantId, acumaticaProductId: item.acumaticaId },
    });

    const dashboard = await api.call("dashboard");

    expect(dashboard.lastRun).toEqual({
      _id: runs[4],
      schedule: null,
      trigger: "manual",
      startDate: "2026-11-21T09:00:00.000Z",
      endDate: "2026-11-21T09:01:00.000Z",
      status: "completed",
      successCount: 5,
      failureCount: 1,
      skippedCount: 0,
    });
    // The schedule at 23:00 today comes before tomorrow's 02:00; the inactive one never runs.
    expect(dashboard.nextRun).toMatchObject({ scheduleName: "Later", at: "2026-11-21T23:00:00.000Z" });
    expect(dashboard.failures).toEqual({
      last24Hours: { runs: 1, items: 1 },
      last7Days: { runs: 3, items: 7 },
    });
    expect(dashboard.catalog).toEqual({ shopifyProducts: 2, shopifyVariants: 3, acumaticaItems: 2 });
    expect(dashboard.mappings).toEqual({ mapped: 1, unmappedShopify: 2, unmappedAcumatica: 1 });
    expect(dashboard.timezone).toBe("UTC");
    expect(dashboard.days).toHaveLength(30);
    expect(dashboard.days[0]?.date).toBe("2026-10-23");
    expect(dashboard.days.at(-1)).toEqual({
      date: "2026-11-21",
      runs: 2,
      successes: 12,
      failures: 1,
      skipped: 3,
    });
    expect(dashboard.days.filter((day) => day.runs > 0)).toEqual([
      { date: "2026-11-18", runs: 1, successes: 10, failures: 2, skipped: 1 },
      { date: "2026-11-20", runs: 1, successes: 0, failures: 4, skipped: 0 },
      { date: "2026-11-21", runs: 2, successes: 12, failures: 1, skipped: 3 },
    ]);
  });

  it("counts days in the asked time zone", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    // 2026-11-20 23:30 UTC is already 2026-11-21 in Berlin, still 2026-11-20 in New York.
    await insertRuns(app.db, userId, [{ hoursAgo: 10.5, success: 4 }]);

    const berlin = await api.call("dashboard", { query: { timezone: "Europe/Berlin" } });
    const newYork = await api.call("dashboard", { query: { timezone: "America/New_York" } });

    expect(berlin.timezone).toBe("Europe/Berlin");
    expect(berlin.days.at(-1)).toEqual({
      date: "2026-11-21",
      runs: 1,
      successes: 4,
      failures: 0,
      skipped: 0,
    });
    expect(newYork.days.at(-1)).toMatchObject({ date: "2026-11-21", runs: 0 });
    expect(newYork.days.at(-2)).toEqual({
      date: "2026-11-20",
      runs: 1,
      successes: 4,
      failures: 0,
      skipped: 0,
    });
  });

  it("answers the latest drift check's counts and the unread alerts, the caller's only", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    const theirs = await registerSubscriber(app);
    const variant = await insertVariant(app.db, userId, { sku: "TEE-S" });
    const item = await insertItem(app.db, userId, { sku: "TEE-S" });
    const mapping = await api.call("manualMap", {
      body: { shopifyVariantId: variant.variantId, acumaticaProductId: item.acumaticaId },
    });
    const checkedAt = "2026-11-21T09:30:00.000Z";
    await app.db.execute({
      sql: `INSERT INTO drift_checks (user_id, checked_at, mappings, fields_json, source) VALUES (?, ?, 12, '["price","quantity"]', 'check')`,
      args: [userId, checkedAt],
    });
    // Two fields of one mapping differ: one mapping drifted.
    for (const field of ["price", "quantity"]) {
      await app.db.execute({
        sql: `INSERT INTO drift_items (user_id, mapping_id, shopify_sku, acumatica_sku, field, shopify_value, erp_value)
              VALUES (?, ?, 'TEE-S', 'TEE-S', ?, 1, 2)`,
        args: [userId, mapping._id, field],
      });
    }
    for (const [owner, readAt, key] of [
      [userId, null, "a"],
      [userId, null, "b"],
      [userId, checkedAt, "c"],
      [theirs.userId, null, "d"],
    ] as const) {
      await app.db.execute({
        sql: `INSERT INTO notifications (id, user_id, kind, title, body, dedupe_key, created_at, read_at)
              VALUES (?, ?, 'failed', 'Run failed', 'body', ?, ?, ?)`,
        args: [crypto.randomUUID(), owner, key, checkedAt, readAt],
      });
    }

    const dashboard = await api.call("dashboard");

    expect(dashboard.drift).toEqual({ checkedAt, mappings: 12, drifted: 1 });
    expect(dashboard.unreadAlerts).toBe(2);
    expect(await theirs.api.call("dashboard")).toMatchObject({
      drift: { checkedAt: null, mappings: 0, drifted: 0 },
      unreadAlerts: 1,
    });
  });

  it("answers empty figures before the first run", async () => {
    const app = await createTestApp();
    const { api } = await registerSubscriber(app);
    const dashboard = await api.call("dashboard");
    expect(dashboard).toMatchObject({
      lastRun: null,
      nextRun: null,
      failures: { last24Hours: { runs: 0, items: 0 }, last7Days: { runs: 0, items: 0 } },
      catalog: { shopifyProducts: 0, shopifyVariants: 0, acumaticaItems: 0 },
      mappings: { mapped: 0, unmappedShopify: 0, unmappedAcumatica: 0 },
      limits: { minScheduleMinutes: null, maxMappings: null },
    });
    expect(dashboard.days.every((day) => day.runs === 0)).toBe(true);
  });

  it("counts only the caller's rows", async () => {
    const app = await createTestApp();
    const mine = await registerSubscriber(app);
    const theirs = await registerSubscriber(app);
    await insertRuns(app.db, theirs.userId, [{ hoursAgo: 1, failure: 3, status: "failed" }]);
    await insertVariant(app.db, theirs.userId, { sku: "THEIRS" });
    await theirs.api.call("createSchedule", { body: daily("Theirs", "12:00") });

    const dashboard = await mine.api.call("dashboard");

    expect(dashboard.lastRun).toBeNull();
    expect(dashboard.nextRun).toBeNull();
    expect(dashboard.failures.last7Days).toEqual({ runs: 0, items: 0 });
    expect(dashboard.catalog.shopifyProducts).toBe(0);
    expect(dashboard.mappings.unmappedShopify).toBe(0);
    expect(dashboard.days.reduce((sum, day) => sum + day.runs, 0)).toBe(0);
    expect((await theirs.api.call("dashboard")).lastRun?.failureCount).toBe(3);
  });

  it("refuses a time zone that is not an IANA zone with a 400 naming the field, and a user without a subscription with a 403", async () => {
    const app = await createTestApp();
    const { api } = await registerSubscriber(app);
    const bad = await failure(api.call("dashboard", { query: { timezone: "Mars/Olympus" } }));
    expect(bad.status).toBe(400);
    expect(bad.errors).toEqual([
      { path: "timezone", message: "timezone must be an IANA time zone, e.g. Europe/Berlin" },
    ]);
    const { token } = await app.registerUser();
    const refused = await failure(app.client(token).call("dashboard"));
    expect(refused.status).toBe(403);
    expect(refused.message).toBe("A subscription is required to access this service.");
  });

  it("reads every figure through an index: no statement scans history, catalogs or mappings", async () => {
    const statements: InStatement[] = [];
    const db = recording(openDatabase(":memory:"), statements);
    await migrate(db);
    const app = await createTestApp({ deps: { db } });
    const { user, token } = await app.registerUser();
    await grantSubscription(db, user._id);
    await insertRuns(db, user._id, [{ hoursAgo: 1, success: 1 }]);
    await insertVariant(db, user._id, { sku: "ONE" });
    const api = app.client(token);

    statements.length = 0;
    await api.call("dashboard", { query: { timezone: "Europe/Berlin" } });

    const scans: string[] = [];
    for (const statement of statements) {
      const { sql, args } = typeof statement === "string" ? { sql: statement, args: [] } : statement;
      if (!/^\s*(SELECT|WITH)/i.test(sql)) continue;
      const plan = await db.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args: args ?? [] });
      for (const row of plan.rows) {
        const detail = String(row.detail);
        if (
          /^SCAN (execution_history|h|shopify_products|acumatica_products|mappings|m|p|schedules)\b/.test(
            detail,
          )
        )
          scans.push(`${detail} in ${sql.slice(0, 80)}`);
      }
    }
    expect(statements.length).toBeGreaterThan(0);
    expect(scans).toEqual([]);
  });
});

/** The database, with every statement it is asked to run written down first. */
function recording(db: Db, statements: InStatement[]): Db {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === "execute")
        return (statement: InStatement) => {
          statements.push(statement);
          return target.execute(statement);
        };
      if (property === "batch")
        return (batch: InStatement[], mode?: Parameters<Db["batch"]>[1]) => {
          statements.push(...batch);
          return target.batch(batch, mode);
        };
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
