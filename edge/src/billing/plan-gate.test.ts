import { createApiClient, type ScheduleInput, type ScheduleSpec } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import {
  type BillingWorld,
  GROWTH,
  SCALE,
  STARTER,
  startBillingWorld,
} from "../../testing/billing-harness.ts";
import { failure } from "../../testing/helpers.ts";
import { insertItem, insertVariant } from "../../testing/mapping-fixtures.ts";

const STARTER_TEXT =
  "Your Starter plan includes daily schedules; upgrade to Growth for schedules every 15 minutes.";

const EVERY_15_MINUTES: ScheduleSpec = {
  type: "minutely",
  minuteInterval: 15,
  time: null,
  day: null,
  interval: null,
};
const EVERY_2_HOURS: ScheduleSpec = {
  type: "hourly",
  interval: 2,
  time: null,
  day: null,
  minuteInterval: null,
};
const DAILY: ScheduleSpec = { type: "daily", time: "02:30", day: null, interval: null, minuteInterval: null };
const WEEKLY: ScheduleSpec = { type: "weekly", time: "02:30", day: 3, interval: null, minuteInterval: null };
const MONTHLY: ScheduleSpec = {
  type: "monthly",
  time: "02:30",
  day: 31,
  interval: null,
  minuteInterval: null,
};

function schedule(spec: ScheduleSpec, overrides: Partial<ScheduleInput> = {}): ScheduleInput {
  return {
    name: `${spec.type} prices`,
    schedule: spec,
    timezone: "UTC",
    mappingIds: [],
    isFullSync: true,
    syncOptions: { price: true, quantity: false },
    status: "active",
    ...overrides,
  };
}

/** A user subscribed to `priceId` through Stripe's checkout, calling the app over real HTTP. */
async function subscriber(world: BillingWorld, priceId: string) {
  const user = await world.user();
  await world.checkoutAndPay(user.token, priceId);
  await world.webhooksDelivered();
  const api = createApiClient({ baseUrl: `${world.appOrigin}/api`, getToken: () => user.token });
  return { ...user, api };
}

/** `count` mappings of the user, written as SQL: what a long-mapped catalog leaves. */
async function insertMappings(world: BillingWorld, userId: string, count: number) {
  const numbers = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)";
  await world.db.execute({
    sql: `${numbers}
          INSERT INTO mappings (id, user_id, shopify_variant_id, shopify_sku, acumatica_id, acumatica_sku, mapping_type, created_at, updated_at)
          SELECT ? || '-' || i, ?, 'gid://shopify/ProductVariant/old-' || i, 'OLD-' || i, 'OLD-' || i, 'OLD-' || i, 'manual',
                 '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
          FROM n`,
    args: [count, userId, userId],
  });
}

async function manualPair(world: BillingWorld, userId: string, sku: string) {
  const variant = await insertVariant(world.db, userId, { sku });
  const item = await insertItem(world.db, userId, { sku });
  return { shopifyVariantId: variant.variantId, acumaticaProductId: item.acumaticaId };
}

async function planRefusal(call: Promise<unknown>) {
  const error = await failure(call);
  return { status: error.status, code: error.code, message: error.message };
}

describe("plan limits from Stripe", () => {
  it("reads each plan's limits from its product's metadata: a schedule frequency and a number of mapped products", async () => {
    const world = await startBillingWorld();
    const { api } = await world.user();
    const plans = await api.call("plans");
    expect(plans.map((plan) => [plan.name, plan.limits])).toEqual([
      ["Starter", { minScheduleMinutes: 1440, maxMappings: 500 }],
      ["Growth", { minScheduleMinutes: 15, maxMappings: 5000 }],
      ["Scale", { minScheduleMinutes: 15, maxMappings: null }],
    ]);
    // The cards promise what is enforced.
    expect(plans[0]?.features).toEqual(
      expect.arrayContaining(["Up to 500 mapped products", "Daily sync schedules"]),
    );
    expect(plans[1]?.features).toEqual(
      expect.arrayContaining(["Up to 5,000 mapped products", "Sync schedules every 15 minutes"]),
    );
  });

  it("takes a price's own limits before its product's and sets no limit for a value that is not a positive whole number", async () => {
    const world = await startBillingWorld();
    const { api } = await world.user();
    const product = await world.stripe.products.create({
      name: "Agency",
      metadata: { min_schedule_minutes: "60", max_mappings: "lots" },
    });
    await world.stripe.prices.create({
      product: product.id,
      unit_amount: 99_00,
      currency: "usd",
      recurring: { interval: "month" },
      metadata: { min_schedule_minutes: "30" },
    });
    const bare = await world.stripe.products.create({ name: "Bare", metadata: { max_mappings: "-5" } });
    await world.stripe.prices.create({
      product: bare.id,
      unit_amount: 199_00,
      currency: "usd",
      recurring: { interval: "month" },
    });
    world.clock.advance(60_000);
    const plans = await api.call("plans");
    expect(plans.find((plan) => plan.name === "Agency")?.limits).toEqual({
      minScheduleMinutes: 30,
      maxMappings: null,
    });
    expect(plans.find((plan) => plan.name === "Bare")?.limits).toEqual({
      minScheduleMinutes: null,
      maxMappings: null,
    });
  });

  it("stores the plan's limits with the subscription, so the user object shows what is enforced", async () => {
    const world = await startBillingWorld();
    const { api } = await subscriber(world, STARTER);
    expect((await api.call("me")).user.subscription).toMatchObject({
      planName: "Starter",
      limits: { minScheduleMinutes: 1440, maxMappings: 500 },
    });
  });
});

describe("schedule frequency per plan", () => {
  it("refuses a Starter subscriber's schedules more frequent than daily with a 403 naming the plan", async () => {
    const world = await startBillingWorld();
    const { api } = await subscriber(world, STARTER);

    for (const spec of [EVERY_15_MINUTES, EVERY_2_HOURS]) {
      expect(await planRefusal(api.call("createSchedule", { body: schedule(spec) }))).toEqual({
        status: 403,
        code: "PLAN_LIMIT",
        message: STARTER_TEXT,
      });
    }
    for (const spec of [DAILY, WEEKLY, MONTHLY]) {
      const created = await api.call("createSchedule", { body: schedule(spec) });
      expect(created).toMatchObject({ status: "active", pausedByPlan: null });
      expect(created.nextRun).not.toBeNull();
    }
    expect((await api.call("listSchedules")).total).toBe(3);
  });

  it("keeps an inactive frequent schedule on Starter but refuses to turn it on or to make an active one frequent", async () => {
    const world = await startBillingWorld();
    const { api } = await subscriber(world, STARTER);
    const kept = await api.call("createSchedule", {
      body: schedule(EVERY_15_MINUTES, { status: "inactive" }),
    });
    expect(kept).toMatchObject({ status: "inactive", nextRun: null });

    expect(
      await planRefusal(
        api.call("setScheduleStatus", { params: { id: kept._id }, body: { status: "active" } }),
      ),
    ).toEqual({ status: 403, code: "PLAN_LIMIT", message: STARTER_TEXT });
    const daily = await api.call("createSchedule", { body: schedule(DAILY) });
    expect(
      await planRefusal(
        api.call("updateSchedule", { params: { id: daily._id }, body: schedule(EVERY_15_MINUTES) }),
      ),
    ).toEqual({ status: 403, code: "PLAN_LIMIT", message: STARTER_TEXT });

    const { schedules } = await api.call("listSchedules");
    expect(schedules.map((s) => [s.name, s.status, s.schedule.type]).sort()).toEqual([
      ["daily prices", "active", "daily"],
      ["minutely prices", "inactive", "minutely"],
    ]);
  });

  it.each([
    ["Growth", GROWTH],
    ["Scale", SCALE],
  ])("lets a %s subscriber schedule every 15 minutes", async (_name, priceId) => {
    const world = await startBillingWorld();
    const { api } = await subscriber(world, priceId);
    for (const spec of [EVERY_15_MINUTES, EVERY_2_HOURS, DAILY]) {
      const created = await api.call("createSchedule", { body: schedule(spec) });
      expect(created).toMatchObject({ status: "active", pausedByPlan: null });
    }
  });
});

describe("after a downgrade", () => {
  it("does not run a schedule the new plan does not include, says why in the list, and runs it again after an upgrade", async () => {
    const world = await startBillingWorld();
    const { api } = await subscriber(world, GROWTH);
    const frequent = await api.call("createSchedule", { body: schedule(EVERY_15_MINUTES) });
    const nightly = await api.call("createSchedule", { body: schedule(DAILY) });

    await api.call("updateSubscription", { body: { priceId: STARTER } });
    await world.webhooksDelivered();

    const listed = (await api.call("listSchedules")).schedules;
    expect(listed.find((s) => s._id === frequent._id)).toMatchObject({
      status: "active",
      nextRun: null,
      pausedByPlan: `Not running: ${STARTER_TEXT}`,
    });
    expect(listed.find((s) => s._id === nightly._id)).toMatchObject({
      pausedByPlan: null,
      nextRun: nightly.nextRun,
    });
    // The dashboard's next run is the nightly one, not the paused quarter-hourly one.
    expect((await api.call("dashboard")).nextRun).toEqual({
      scheduleId: nightly._id,
      scheduleName: nightly.name,
      at: nightly.nextRun,
    });

    world.clock.advance(15 * 60_000);
    const tick = await world.app.tick();
    expect(tick.ran).toEqual([]);
    expect(tick.skipped).toEqual([frequent._id]);
    expect((await api.call("executionHistory")).total).toBe(0);

    await api.call("updateSubscription", { body: { priceId: GROWTH } });
    await world.webhooksDelivered();
    expect((await api.call("listSchedules")).schedules.find((s) => s._id === frequent._id)).toMatchObject({
      pausedByPlan: null,
    });
    world.clock.advance(15 * 60_000);
    expect((await world.app.tick()).ran).toEqual([frequent._id]);
    expect((await api.call("executionHistory")).histories[0]?.schedule?.name).toBe(frequent.name);
  });
});

describe("mapped products per plan", () => {
  it("maps a Starter subscriber's 500th product and refuses the 501st with a 403 naming the plan", async () => {
    const world = await startBillingWorld();
    const { api, userId } = await subscriber(world, STARTER);
    await insertMappings(world, userId, 499);

    const last = await api.call("manualMap", { body: await manualPair(world, userId, "LAST-FIT") });
    expect(last.shopifyDetails.sku).toBe("LAST-FIT");
    expect(
      await planRefusal(api.call("manualMap", { body: await manualPair(world, userId, "ONE-MORE") })),
    ).toEqual({
      status: 403,
      code: "PLAN_LIMIT",
      message:
        "Your Starter plan includes up to 500 mapped products (you have 500); upgrade to Growth for up to 5,000 mapped products.",
    });
    expect((await api.call("mappingHistory")).total).toBe(500);
    // Editing a mapping is not a new one: it stays possible at the limit.
    const other = await manualPair(world, userId, "REPOINTED");
    expect(await api.call("updateMapping", { params: { id: last._id }, body: other })).toMatchObject({
      shopifyDetails: { sku: "REPOINTED" },
    });
  });

  it("auto-maps up to the plan's number and reports the pairs it left unmapped and why", async () => {
    const world = await startBillingWorld();
    const { api, userId } = await subscriber(world, STARTER);
    await insertMappings(world, userId, 498);
    for (const sku of ["A-1", "A-2", "A-3", "A-4", "A-5"]) await manualPair(world, userId, sku);

    const { job } = await api.call("autoMap");
    let done = job;
    while (done.status === "running" || done.status === "queued")
      done = await api.call("job", { params: { id: job._id } });

    expect(done.result).toMatchObject({
      created: 2,
      alreadyMapped: 0,
      overPlanLimit: 3,
      planLimit:
        "Your Starter plan includes up to 500 mapped products (you have 500); upgrade to Growth for up to 5,000 mapped products.",
    });
    expect((await api.call("mappingHistory")).total).toBe(500);
  });

  it("keeps a Scale subscriber's mappings unlimited", async () => {
    const world = await startBillingWorld();
    const { api, userId } = await subscriber(world, SCALE);
    await insertMappings(world, userId, 6_000);
    await api.call("manualMap", { body: await manualPair(world, userId, "SIX-THOUSAND-ONE") });
    expect((await api.call("mappingHistory")).total).toBe(6_001);
  });
});
