import { describe, expect, it } from "vitest";
import { AcumaticaClient, acumaticaPerTest, eventually } from "../../testing/acumatica-harness.ts";

const { start, signedIn } = acumaticaPerTest();

const ONE_ITEM = "/entity/Default/23.200.001/StockItem?$select=InventoryID&$top=1";

describe("licence request queue", () => {
  it("runs maxConcurrent requests, queues 20 more and declines the rest with 429", async () => {
    const { erp, client } = await signedIn();
    // The first request holds the only slot (a hang that ends when its caller gives up) until all
    // the others have arrived, however slowly a busy machine delivers them.
    await erp.configure({ maxConcurrent: 1, timeoutRate: 1, timeoutMs: 600_000 });
    const holder = new AbortController();
    const held = client.request("GET", ONE_ITEM, { signal: holder.signal }).catch(() => "given up");
    await eventually(async () => (await erp.state()).running === 1, "the first request to hold the slot");

    const statuses = Promise.all(
      Array.from({ length: 23 }, () => client.request("GET", ONE_ITEM).then((response) => response.status)),
    );
    await eventually(async () => {
      const state = await erp.state();
      return state.queued === 20 && state.queueDeclines === 3;
    }, "20 requests to queue and 3 to be declined");
    await erp.configure({ timeoutRate: 0 });
    holder.abort();

    expect(await held).toBe("given up");
    expect((await statuses).filter((status) => status === 200)).toHaveLength(20);
    expect((await statuses).filter((status) => status === 429)).toHaveLength(3);
    expect(await erp.state()).toMatchObject({
      queueDeclines: 3,
      declined: 3,
      queuedPeak: 20,
      runningPeak: 1,
    });
  });

  it("delays requests once the past minute holds half of requestsPerMinute, until the clock moves on", async () => {
    const { erp, client } = await signedIn();
    await erp.configure({ requestsPerMinute: 4 });
    await client.request("GET", ONE_ITEM);

    const delayed = client.request("GET", ONE_ITEM);
    await eventually(async () => (await erp.state()).delayed === 1, "the request to be delayed");
    const queuedWhileDelayed = (await erp.state()).queued;
    await erp.advanceSeconds(60);
    const response = await delayed;

    expect(queuedWhileDelayed).toBe(1);
    expect(response.status).toBe(200);
  });

  it("declines a request that waited in the queue for more than 10 minutes", async () => {
    const { erp, client } = await signedIn();
    await erp.configure({ requestsPerMinute: 2, idleTimeoutSeconds: 3_600 });

    const waiting = client.request("GET", ONE_ITEM);
    await eventually(async () => (await erp.state()).delayed === 1, "the request to be delayed");
    await erp.advanceSeconds(11 * 60);
    const response = await waiting;

    expect(response.status).toBe(429);
  });

  it("lets logout skip the queue", async () => {
    const { erp, client } = await signedIn();
    await erp.configure({ requestsPerMinute: 2 });

    const waiting = client.request("GET", ONE_ITEM);
    await eventually(async () => (await erp.state()).delayed === 1, "the request to be delayed");
    const logout = await new AcumaticaClient(erp.instanceUrl).logout();
    await erp.advanceSeconds(60);
    await waiting;

    expect(logout.status).toBe(204);
  });
});

describe("configure", () => {
  it("answers 400 to bad values, naming the field, and to unknown settings", async () => {
    const erp = await start();

    await expect(erp.configure({ seats: 0 })).rejects.toThrow(/400.*seats/);
    await expect(erp.configure({ errorRate: 2 })).rejects.toThrow(/errorRate/);
    await expect(erp.configure({ latencyMs: "fast" })).rejects.toThrow(/latencyMs/);
    await expect(erp.configure({ requestsPerMinute: -1 })).rejects.toThrow(/requestsPerMinute/);
    await expect(erp.configure({ bogus: 1 })).rejects.toThrow(/bogus/);
  });

  it("answers transient 500/503 errors at errorRate 1", async () => {
    const { erp, client } = await signedIn();
    await erp.configure({ errorRate: 1 });

    const statuses = await Promise.all(
      Array.from({ length: 6 }, () => client.request("GET", ONE_ITEM).then((response) => response.status)),
    );

    expect(statuses.every((status) => status === 500 || status === 503)).toBe(true);
    expect(await erp.state()).toMatchObject({ injectedErrors: 6 });
  });

  it("hangs a call at timeoutRate 1 until the client gives up", async () => {
    const { erp, client } = await signedIn();
    await erp.configure({ timeoutRate: 1, timeoutMs: 600_000 });

    const outcome = await client
      .request("GET", ONE_ITEM, { signal: AbortSignal.timeout(100) })
      .then(() => "answered")
      .catch((error: Error) => error.name);

    expect(outcome).toBe("TimeoutError");
    expect(await erp.state()).toMatchObject({ injectedTimeouts: 1 });
  });
});
