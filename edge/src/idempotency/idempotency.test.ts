import { MESSAGES } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { createTestApp, grantSubscription, type TestApp } from "../../testing/helpers.ts";
import { registerSubscriber } from "../../testing/mapping-fixtures.ts";

const DAILY = {
  schedule: { type: "daily" as const, time: "02:00" },
  isFullSync: true,
  syncOptions: { price: true, quantity: false },
};
const DAY_MS = 24 * 60 * 60 * 1000;

/** POST /api/mapping-schedule as a client sends it, with an Idempotency-Key. */
function createSchedule(edge: TestApp, token: string, options: { key: string; name: string }) {
  return edge.request("/api/mapping-schedule", {
    token,
    body: { name: options.name, ...DAILY },
    headers: { "Idempotency-Key": options.key },
  });
}

async function scheduleNames(edge: TestApp, token: string): Promise<string[]> {
  const list = await edge.client(token).call("listSchedules");
  return list.schedules.map((schedule) => schedule.name);
}

describe("a write sent with an Idempotency-Key", () => {
  it("runs once: a repeat answers the first answer without creating a second schedule", async () => {
    const edge = await createTestApp();
    const { token } = await registerSubscriber(edge);

    const first = await createSchedule(edge, token, { key: "create-nightly", name: "Nightly" });
    const repeat = await createSchedule(edge, token, { key: "create-nightly", name: "Nightly" });

    expect(first.status).toBe(200);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get("Idempotent-Replayed")).toBe("true");
    expect(repeat.headers.get("Content-Type")).toContain("application/json");
    expect(await repeat.json()).toEqual(await first.json());
    expect(await scheduleNames(edge, token)).toEqual(["Nightly"]);
  });

  it("refuses the same key with another body with 422 naming the header, and runs nothing", async () => {
    const edge = await createTestApp();
    const { token } = await registerSubscriber(edge);
    await createSchedule(edge, token, { key: "reused", name: "Nightly" });

    const other = await createSchedule(edge, token, { key: "reused", name: "Weekly" });

    expect(other.status).toBe(422);
    const body = await other.json();
    expect(body).toEqual({ message: MESSAGES.idempotency.reused, code: "IDEMPOTENCY_KEY_REUSED" });
    expect(body.message).toContain("Idempotency-Key");
    expect(await scheduleNames(edge, token)).toEqual(["Nightly"]);
  });

  it("refuses the same key on another path with 422", async () => {
    const edge = await createTestApp();
    const { token } = await registerSubscriber(edge);
    const created = await createSchedule(edge, token, { key: "one-key", name: "Nightly" });
    const { data } = await created.json();

    const other = await edge.request(`/api/mapping-schedule/${data._id}/status`, {
      method: "PUT",
      token,
      body: { status: "inactive" },
      headers: { "Idempotency-Key": "one-key" },
    });

    expect(other.status).toBe(422);
    expect((await edge.client(token).call("listSchedules")).schedules[0]?.status).toBe("active");
  });

  it("runs another user's same key as that user's own request", async () => {
    const edge = await createTestApp();
    const alice = await registerSubscriber(edge);
    const bob = await registerSubscriber(edge);

    const mine = await createSchedule(edge, alice.token, { key: "shared-key", name: "Alice nightly" });
    const theirs = await createSchedule(edge, bob.token, { key: "shared-key", name: "Bob nightly" });

    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await scheduleNames(edge, alice.token)).toEqual(["Alice nightly"]);
    expect(await scheduleNames(edge, bob.token)).toEqual(["Bob nightly"]);
  });

  it.each([
    ["empty", ""],
    ["longer than 255 characters", "k".repeat(256)],
    ["not ASCII", "clé-1"],
    ["a control character", "key\tone"],
  ])("refuses a key that is %s with 400 naming the header, and runs nothing", async (_, key) => {
    const edge = await createTestApp();
    const { token } = await registerSubscriber(edge);

    const response = await createSchedule(edge, token, { key, name: "Nightly" });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: MESSAGES.idempotency.invalidKey,
      code: "VALIDATION_FAILED",
      errors: [{ path: "Idempotency-Key", message: MESSAGES.idempotency.invalidKey }],
    });
    expect(await scheduleNames(edge, token)).toEqual([]);
  });

  it("accepts a key of 255 printable characters", async () => {
    const edge = await createTestApp();
    const { token } = await registerSubscriber(edge);

    const response = await createSchedule(edge, token, { key: `${"~ ".repeat(127)}!`, name: "Nightly" });

    expect(response.status).toBe(200);
  });

  it("replays a stored refusal (4xx) instead of running the request again", async () => {
    const edge = await createTestApp();
    const { token } = await registerSubscriber(edge);
    const send = () =>
      edge.request("/api/mapping-schedule", {
        token,
        body: { name: "", ...DAILY },
        headers: { "Idempotency-Key": "bad-input" },
      });

    const first = await send();
    const repeat = await send();

    expect(first.status).toBe(400);
    expect(repeat.status).toBe(400);
    expect(repeat.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await repeat.json()).toEqual(await first.json());
  });

  it("answers a replayed delete with its first answer, not 404", async () => {
    const edge = await createTestApp();
    const { token } = await registerSubscriber(edge);
    const created = await edge.client(token).call("createSchedule", { body: { name: "Doomed", ...DAILY } });
    const send = () =>
      edge.request(`/api/mapping-schedule/${created._id}`, {
        method: "DELETE",
        token,
        headers: { "Idempotency-Key": "delete-doomed" },
      });

    const first = await send();
    const repeat = await send();

    expect(first.status).toBe(200);
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toEqual(await first.json());
  });

  it("frees the key after 24 hours: the same key then runs again, even with another body", async () => {
    const edge = await createTestApp();
    const { user, email, password } = await edge.registerUser();
    await grantSubscription(edge.db, user._id);
    // A session lasts less than a day: sign in again as the clock moves.
    const signIn = async () => (await edge.client().call("login", { body: { email, password } })).token;
    await createSchedule(edge, await signIn(), { key: "daily-key", name: "Nightly" });

    edge.clock.advance(DAY_MS - 1);
    const token = await signIn();
    expect((await createSchedule(edge, token, { key: "daily-key", name: "Weekly" })).status).toBe(422);
    edge.clock.advance(1);
    const later = await createSchedule(edge, token, { key: "daily-key", name: "Weekly" });

    expect(later.status).toBe(200);
    expect(later.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await scheduleNames(edge, token)).toEqual(["Weekly", "Nightly"]);
  });

  it("answers 409 with Retry-After while the first request runs, and runs a repeat once that one is dead", async () => {
    const edge = await createTestApp();
    const { token } = await registerSubscriber(edge);
    await createSchedule(edge, token, { key: "slow-key", name: "Nightly" });
    // The row as it stands while the first request is still running: claimed, no answer yet (a
    // real one runs for milliseconds, too short to catch from a test without timing).
    await edge.db.execute({
      sql: "UPDATE idempotency_keys SET status = NULL, response_body = NULL, claimed_at = ? WHERE idempotency_key = ?",
      args: [edge.clock.now().toISOString(), "slow-key"],
    });
    await edge.db.execute("DELETE FROM schedules");

    const meanwhile = await createSchedule(edge, token, { key: "slow-key", name: "Nightly" });
    expect(meanwhile.status).toBe(409);
    expect(meanwhile.headers.get("Retry-After")).toBe("1");
    expect(await meanwhile.json()).toEqual({
      message: MESSAGES.idempotency.inProgress,
      code: "IDEMPOTENCY_IN_PROGRESS",
    });
    expect(await scheduleNames(edge, token)).toEqual([]);

    // A first request that never answered within its lease (its process stopped) frees the key.
    edge.clock.advance(5 * 60 * 1000 + 1);
    const retried = await createSchedule(edge, token, { key: "slow-key", name: "Nightly" });
    expect(retried.status).toBe(200);
    expect(retried.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await scheduleNames(edge, token)).toEqual(["Nightly"]);
  });

  // Every endpoint whose answer is a secret shown once: a stored answer would keep it in the clear.
  it.each([
    { name: "a new API token", path: "/api/tokens", body: { name: "cron" }, secret: "token" },
    {
      name: "a new webhook signing secret",
      path: "/api/settings/notifications/webhook-secret",
      body: undefined,
      secret: "secret",
    },
  ])(
    "never stores $name: the key is not honoured there, and the secret is kept nowhere",
    async (endpoint) => {
      const edge = await createTestApp();
      const { token } = await registerSubscriber(edge);
      const create = () =>
        edge.request(endpoint.path, {
          token,
          method: "POST",
          ...(endpoint.body ? { body: endpoint.body } : {}),
          headers: { "Idempotency-Key": "secret-key" },
        });

      const first = await create();
      const second = await create();

      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.headers.get("Idempotent-Replayed")).toBeNull();
      const secrets = [
        (await first.json()).data[endpoint.secret],
        (await second.json()).data[endpoint.secret],
      ];
      expect(secrets[0]).toEqual(expect.any(String));
      expect(secrets[0]).not.toBe(secrets[1]);
      const stored = await edge.db.execute("SELECT count(*) AS n FROM idempotency_keys");
      expect(Number(stored.rows[0]?.n)).toBe(0);
    },
  );

  it("is deleted by the minute tick once expired", async () => {
    const edge = await createTestApp();
    const { token } = await registerSubscriber(edge);
    await createSchedule(edge, token, { key: "kept-a-day", name: "Nightly" });
    const stored = async () =>
      Number((await edge.db.execute("SELECT count(*) AS n FROM idempotency_keys")).rows[0]?.n);

    await edge.app.tick();
    expect(await stored()).toBe(1);
    edge.clock.advance(DAY_MS);
    await edge.app.tick();

    expect(await stored()).toBe(0);
  });

  it("leaves a request without the header as it was: a repeat creates another schedule", async () => {
    const edge = await createTestApp();
    const { token } = await registerSubscriber(edge);
    const send = () => edge.request("/api/mapping-schedule", { token, body: { name: "Nightly", ...DAILY } });

    const first = await send();
    const second = await send();

    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    expect(second.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await scheduleNames(edge, token)).toEqual(["Nightly", "Nightly"]);
  });
});
