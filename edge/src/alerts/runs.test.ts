import type { Mapping } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { ALERT_SETTINGS, startReceiver } from "../../testing/alerts-harness.ts";
import { type ConnectedApp, createConnectedApp } from "../../testing/connectors-harness.ts";
import { createTestApp } from "../../testing/helpers.ts";
import { registerSubscriber } from "../../testing/mapping-fixtures.ts";
import { createHistoryRepo } from "../history/repo.ts";
import { RUN_STOPPED } from "../history/run-lease.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const QUANTITY_ONLY = { price: false, quantity: true };
/** Shopify refuses a total above 1,000,000,000: three warehouses of this fail one mapping's quantity. */
const TOO_MANY_PER_WAREHOUSE = 400_000_000;

/** Both demo catalogs pulled and auto-mapped against the sandbox: runs have real work to do. */
async function mappedApp() {
  const app = await createConnectedApp({
    size: 20,
    env: { APP_ORIGIN: "https://app.stockbridge.test" },
  });
  cleanups.push(app.close);
  await app.connectShopify();
  await app.connectAcumatica();
  for (const name of ["syncShopifyProducts", "syncAcumaticaProducts", "autoMap"] as const) {
    const { job } = await app.api.call(name);
    expect((await app.waitForJob(job._id)).status).toBe("succeeded");
  }
  return app;
}

function setErpQuantity(app: ConnectedApp, inventoryId: string, perWarehouse: number) {
  for (const warehouseId of ["WHOLESALE", "RETAIL", "RETURNS"]) {
    app.acumatica.setQuantities({
      inventoryId,
      warehouseId,
      onHand: perWarehouse,
      available: perWarehouse,
      availableForShipment: perWarehouse,
    });
  }
}

/** Mappings whose quantity sync writes something (a tracked, stocked item), `count` of them. */
async function quantityMappings(app: ConnectedApp, count: number): Promise<Mapping[]> {
  const { mappings } = await app.api.call("mappingHistory", { query: { limit: "100" } });
  const found: Mapping[] = [];
  for (const mapping of mappings) {
    setErpQuantity(app, mapping.acumaticaDetails.sku, 100 + found.length);
    const plan = await app.api.call("syncMapping", {
      params: { id: mapping._id },
      body: { syncOptions: QUANTITY_ONLY, dryRun: true },
    });
    if (plan.results[0]?.changes.some((change) => change.field === "quantity")) found.push(mapping);
    if (found.length === count) return found;
  }
  throw new Error(`fewer than ${count} mappings with a quantity to write in the seed`);
}

describe("alerts for finished runs", () => {
  it("alerts a run in which every mapping failed as failed, linking its history entry", async () => {
    const app = await mappedApp();
    const [mapping] = await quantityMappings(app, 1);
    setErpQuantity(app, mapping!.acumaticaDetails.sku, TOO_MANY_PER_WAREHOUSE);

    const run = await app.api.call("syncMapping", {
      params: { id: mapping!._id },
      body: { syncOptions: QUANTITY_ONLY },
    });
    expect(run.results[0]?.outcome).toBe("failed");

    const { notifications, unread } = await app.api.call("listNotifications");
    expect(unread).toBe(1);
    expect(notifications).toEqual([
      expect.objectContaining({
        kind: "failed",
        title: "Sync failed: Manual sync",
        body: "1 of 1 mapping failed; none succeeded.",
        historyId: run.historyId,
        readAt: null,
      }),
    ]);
  });

  it("alerts some failures as partial: in the app always, by webhook only once onPartial is on", async () => {
    const app = await mappedApp();
    const hooks = await startReceiver();
    cleanups.push(hooks.close);
    await app.api.call("saveNotificationSettings", { body: { ...ALERT_SETTINGS, webhookUrl: hooks.url } });
    await app.api.call("createWebhookSecret");
    const [good, bad] = await quantityMappings(app, 2);
    const syncBoth = async () => {
      setErpQuantity(app, good!.acumaticaDetails.sku, 150 + Math.floor(Math.random() * 100));
      setErpQuantity(app, bad!.acumaticaDetails.sku, TOO_MANY_PER_WAREHOUSE);
      const { job } = await app.api.call("syncMappings", {
        body: { mappingIds: [good!._id, bad!._id], syncOptions: QUANTITY_ONLY },
      });
      return app.waitForJob(job._id);
    };

    const first = await syncBoth();
    await app.app.tick();
    const [partial] = (await app.api.call("listNotifications")).notifications;
    expect(partial).toMatchObject({
      kind: "partial",
      title: "Sync completed with failures: Manual sync",
      body: "1 of 2 mappings failed; 1 succeeded.",
      historyId: (first.result as { historyId: string }).historyId,
    });
    expect((await app.api.call("alertDeliveries")).deliveries).toEqual([]);
    expect(hooks.received).toHaveLength(0);

    await app.api.call("saveNotificationSettings", {
      body: { ...ALERT_SETTINGS, webhookUrl: hooks.url, onPartial: true },
    });
    const second = await syncBoth();
    await app.app.tick();
    expect(hooks.received).toHaveLength(1);
    const historyId = (second.result as { historyId: string }).historyId;
    const entry = await app.api.call("executionHistoryEntry", { params: { id: historyId } });
    expect(JSON.parse(hooks.received[0]!.body)).toEqual({
      type: "run.partial",
      historyId,
      scheduleName: null,
      status: entry.status,
      successCount: 1,
      failureCount: 1,
      skippedCount: 0,
      startDate: entry.startDate,
      endDate: entry.endDate,
      url: `https://app.stockbridge.test/execution-history?entry=${historyId}`,
    });
  });

  it("alerts a run that Acumatica refused to sign in to as a failed connection", async () => {
    const app = await mappedApp();
    const { mappings } = await app.api.call("mappingHistory");
    await app.connectAcumatica({ password: "Wrong-Passw0rd" });

    const refused = await app.api
      .call("syncMapping", { params: { id: mappings[0]!._id }, body: { syncOptions: QUANTITY_ONLY } })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 502 });

    const [entry] = (await app.api.call("executionHistory")).histories;
    const [alert] = (await app.api.call("listNotifications")).notifications;
    expect(alert).toMatchObject({
      kind: "connection",
      title: "Connection to Acumatica failed",
      historyId: entry!._id,
    });
    expect(alert!.body).toBe(
      `Manual sync could not run: ${entry!.error}. Test the connection in Settings > Connections.`,
    );
  });

  it("raises none for a run without failures", async () => {
    const app = await mappedApp();
    const [mapping] = await quantityMappings(app, 1);
    const run = await app.api.call("syncMapping", {
      params: { id: mapping!._id },
      body: { syncOptions: QUANTITY_ONLY },
    });
    expect(run.results[0]?.outcome).toBe("succeeded");
    await app.app.tick();
    expect(await app.api.call("listNotifications")).toEqual({ notifications: [], unread: 0 });
  });
});

describe("a run whose process stopped", () => {
  it("is alerted by the tick that ends its entry, once", async () => {
    const app = await createTestApp();
    const { api, userId } = await registerSubscriber(app);
    const historyId = crypto.randomUUID();
    await createHistoryRepo(app.db).start({
      id: historyId,
      userId,
      trigger: "manual",
      scheduleId: null,
      scheduleName: null,
      startDate: app.clock.now().toISOString(),
      leaseUntil: new Date(app.clock.now().getTime() + 60_000).toISOString(),
      scope: "all",
      syncOptions: { price: true, quantity: true },
    });

    app.clock.advance(2 * 60_000);
    await app.app.tick();
    await app.app.tick();

    const { notifications } = await api.call("listNotifications");
    expect(notifications).toEqual([
      expect.objectContaining({
        kind: "failed",
        title: "Sync failed: Manual sync",
        body: `The run failed: ${RUN_STOPPED}`,
        historyId,
      }),
    ]);
  });
});
