import { startSandbox } from "@stockbridge/sandbox";
import { afterEach, describe, expect, it } from "vitest";
import {
  ALERT_SETTINGS,
  everyQuarter,
  startReceiver,
  verifySignature,
} from "../../testing/alerts-harness.ts";
import { createTestApp, type TestApp } from "../../testing/helpers.ts";
import { registerSubscriber } from "../../testing/mapping-fixtures.ts";
import { ConfigError, parseConfig } from "../config.ts";

const MINUTE = 60_000;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver() {
  const started = await startReceiver();
  cleanups.push(started.close);
  return started;
}

/** An app whose outbound guard lets it reach a loopback receiver, as in sandbox mode. */
async function appWithWebhook(url: string, env: Record<string, string> = {}) {
  const app = await createTestApp({
    env: { ALLOW_PRIVATE_NETWORK: "true", APP_ORIGIN: "https://app.stockbridge.test", ...env },
  });
  const subscriber = await registerSubscriber(app);
  await subscriber.api.call("saveNotificationSettings", { body: { ...ALERT_SETTINGS, webhookUrl: url } });
  const { secret } = await subscriber.api.call("createWebhookSecret");
  return { app, ...subscriber, secret };
}

/**
 * A schedule whose 10:15 run the cron reaches at 10:26: one missed-run alert, recorded and sent on
 * that tick. The schedule is turned off after it, so later ticks add no alert of their own.
 */
async function missSchedule(target: { app: TestApp; api: ReturnType<TestApp["client"]> }, name = "Nightly") {
  const schedule = await target.api.call("createSchedule", { body: everyQuarter(name) });
  target.app.clock.advance(26 * MINUTE);
  await target.app.app.tick();
  await target.api.call("setScheduleStatus", { params: { id: schedule._id }, body: { status: "inactive" } });
}

describe("webhook alerts", () => {
  it("POSTs the alert signed with the secret shown once: t and v1 verify over t.body", async () => {
    const hooks = await receiver();
    const target = await appWithWebhook(hooks.url);

    await missSchedule(target);

    expect(hooks.received).toHaveLength(1);
    const [hook] = hooks.received;
    const { timestamp } = verifySignature(hook!, target.secret);
    expect(timestamp).toBe(Date.parse("2026-11-21T10:26:00Z") / 1000);
    expect(() => verifySignature(hook!, `${target.secret}x`)).toThrow(/does not match/);
    expect(hook!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(hook!.body)).toEqual({
      type: "schedule.missed",
      historyId: null,
      scheduleName: "Nightly",
      status: null,
      successCount: 0,
      failureCount: 0,
      skippedCount: 0,
      startDate: "2026-11-21T10:15:00.000Z",
      endDate: null,
      url: "https://app.stockbridge.test/mapping-schedule",
    });
    const { deliveries } = await target.api.call("alertDeliveries");
    expect(deliveries).toEqual([
      expect.objectContaining({
        channel: "webhook",
        target: hooks.url,
        title: "Scheduled sync missed: Nightly",
        status: "delivered",
        attempts: 1,
        lastStatusCode: 200,
        lastError: null,
        nextAttemptAt: null,
        deliveredAt: "2026-11-21T10:26:00.000Z",
      }),
    ]);
    expect(hook!.headers["stockbridge-delivery"]).toBe(deliveries[0]!._id);
  });

  it("tries again after the receiver answers 500, not before its time, and then delivers", async () => {
    const hooks = await receiver();
    hooks.answer(500);
    const target = await appWithWebhook(hooks.url);

    await missSchedule(target);
    expect(hooks.received).toHaveLength(1);
    expect((await target.api.call("alertDeliveries")).deliveries[0]).toMatchObject({
      status: "pending",
      attempts: 1,
      lastStatusCode: 500,
      lastError: "The receiver answered HTTP 500",
      nextAttemptAt: "2026-11-21T10:27:00.000Z",
    });

    await target.app.app.tick();
    expect(hooks.received).toHaveLength(1);

    target.app.clock.advance(MINUTE);
    await target.app.app.tick();
    expect(hooks.received).toHaveLength(2);
    // The same alert, signed again at the time of the retry.
    expect(hooks.received[1]!.body).toBe(hooks.received[0]!.body);
    expect(verifySignature(hooks.received[1]!, target.secret).timestamp).toBe(
      Date.parse("2026-11-21T10:27:00Z") / 1000,
    );
    expect((await target.api.call("alertDeliveries")).deliveries[0]).toMatchObject({
      status: "delivered",
      attempts: 2,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    });
  });

  it("backs off (1, 2, 4... minutes, at most 6 hours) for 24 hours, then lists the delivery failed", async () => {
    const hooks = await receiver();
    hooks.answer(...Array.from({ length: 40 }, () => 503));
    const target = await appWithWebhook(hooks.url);
    // Sessions last an hour; a personal token outlives the day this test moves through.
    const { token } = await target.api.call("createToken", { body: { name: "test" } });
    const api = target.app.client(token);

    await missSchedule(target);
    const attemptsAt: string[] = [];
    let delivery = await onlyDelivery(api);
    while (delivery.status === "pending") {
      attemptsAt.push(delivery.nextAttemptAt!);
      target.app.clock.advance(Date.parse(delivery.nextAttemptAt!) - target.app.clock.now().getTime());
      await target.app.app.tick();
      delivery = await onlyDelivery(api);
    }

    const waits = attemptsAt.map((at, index) =>
      Math.round(
        (Date.parse(at) - Date.parse(index === 0 ? "2026-11-21T10:26:00Z" : attemptsAt[index - 1]!)) / MINUTE,
      ),
    );
    expect(waits.slice(0, 9)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256]);
    expect(Math.max(...waits)).toBe(360);
    expect(attemptsAt.at(-1)).toBe("2026-11-22T10:26:00.000Z");
    expect(delivery).toMatchObject({
      status: "failed",
      attempts: attemptsAt.length + 1,
      lastStatusCode: 503,
      lastError: "The receiver answered HTTP 503",
      nextAttemptAt: null,
    });
    expect(hooks.received).toHaveLength(attemptsAt.length + 1);
  });

  it("is sent once when two instances tick at the same time", async () => {
    const hooks = await receiver();
    const target = await appWithWebhook(hooks.url);
    await target.api.call("createSchedule", { body: everyQuarter("Nightly") });
    target.app.clock.advance(26 * MINUTE);

    await Promise.all([target.app.app.tick(), target.app.app.tick(), target.app.app.tick()]);

    expect(hooks.received).toHaveLength(1);
    expect((await target.api.call("alertDeliveries")).deliveries).toHaveLength(1);
  });

  it("waits with the reason instead of sending unsigned when no secret was created", async () => {
    const hooks = await receiver();
    const app = await createTestApp({ env: { ALLOW_PRIVATE_NETWORK: "true" } });
    const { api } = await registerSubscriber(app);
    await api.call("saveNotificationSettings", { body: { ...ALERT_SETTINGS, webhookUrl: hooks.url } });

    await missSchedule({ app, api });

    expect(hooks.received).toHaveLength(0);
    expect((await api.call("alertDeliveries")).deliveries[0]).toMatchObject({
      status: "pending",
      lastError: "No webhook signing secret: create one in Settings > Notifications",
    });
    const { secret } = await api.call("createWebhookSecret");
    app.clock.advance(MINUTE);
    await app.app.tick();
    expect(hooks.received).toHaveLength(1);
    verifySignature(hooks.received[0]!, secret);
  });

  it("sends nothing for a kind the settings leave off, yet records it in the app", async () => {
    const hooks = await receiver();
    const target = await appWithWebhook(hooks.url);
    await target.api.call("saveNotificationSettings", {
      body: { ...ALERT_SETTINGS, webhookUrl: hooks.url, onMissed: false },
    });

    await missSchedule(target);

    expect(hooks.received).toHaveLength(0);
    expect((await target.api.call("alertDeliveries")).deliveries).toEqual([]);
    expect((await target.api.call("listNotifications")).unread).toBe(1);
  });
});

describe("email alerts", () => {
  it("go through SMTP to the account's email by default; the sandbox catches them", async () => {
    const sandbox = await startSandbox();
    cleanups.push(sandbox.close);
    const app = await createTestApp({
      env: {
        SMTP_URL: sandbox.smtpUrl,
        SMTP_FROM: "Stockbridge <alerts@stockbridge.test>",
        APP_ORIGIN: "https://app.stockbridge.test",
      },
    });
    const { api } = await registerSubscriber(app);
    const { user: me } = await api.call("me");

    await missSchedule({ app, api }, "Nightly prices");

    const caught = await (await fetch(`${sandbox.origin}/__control/mail`)).json();
    expect(caught).toEqual([
      expect.objectContaining({
        envelope: { from: "alerts@stockbridge.test", to: [me.email] },
        from: '"Stockbridge" <alerts@stockbridge.test>',
        to: me.email,
        subject: "Scheduled sync missed: Nightly prices",
        text: [
          "Nightly prices was due at Nov 21, 2026, 10:15 (UTC) and started 11 minutes late: the scheduler did not run in time.",
          "",
          "Open in Stockbridge: https://app.stockbridge.test/mapping-schedule",
          "",
          "Choose which alerts you get in Settings > Notifications: https://app.stockbridge.test/settings",
          "",
        ].join("\n"),
      }),
    ]);
    expect((await api.call("alertDeliveries")).deliveries).toEqual([
      expect.objectContaining({
        channel: "email",
        target: me.email,
        status: "delivered",
        attempts: 1,
        lastStatusCode: 250,
      }),
    ]);
  });

  it("are retried when the mail server cannot be reached", async () => {
    // A port nothing listens on: the connection is refused.
    const app = await createTestApp({ env: { SMTP_URL: "smtp://127.0.0.1:9" } });
    const { api } = await registerSubscriber(app);

    await missSchedule({ app, api });

    expect((await api.call("alertDeliveries")).deliveries[0]).toMatchObject({
      channel: "email",
      status: "pending",
      attempts: 1,
      lastError: expect.stringMatching(/^SMTP: .*ECONNREFUSED/),
      nextAttemptAt: "2026-11-21T10:27:00.000Z",
    });
  });

  it("are not queued when the server has no SMTP_URL", async () => {
    const app = await createTestApp();
    const { api } = await registerSubscriber(app);
    await missSchedule({ app, api });
    expect((await api.call("alertDeliveries")).deliveries).toEqual([]);
    expect((await api.call("listNotifications")).unread).toBe(1);
  });
});

describe("SMTP configuration", () => {
  it("takes smtp:// and smtps:// URLs, and a From that defaults to alerts@ the app's host", () => {
    expect(parseConfig({})).toMatchObject({ smtpUrl: undefined, smtpFrom: "Stockbridge <alerts@localhost>" });
    expect(
      parseConfig({
        SMTP_URL: "smtps://user:secret@smtp.example.com:465",
        APP_ORIGIN: "https://app.example.com",
      }),
    ).toMatchObject({
      smtpUrl: "smtps://user:secret@smtp.example.com:465",
      smtpFrom: "Stockbridge <alerts@app.example.com>",
    });
    expect(parseConfig({ SMTP_FROM: "Ops <ops@example.com>" }).smtpFrom).toBe("Ops <ops@example.com>");
  });

  it("names SMTP_URL or SMTP_FROM when one is wrong, without echoing a password", () => {
    expect(() => parseConfig({ SMTP_URL: "https://user:secret@smtp.example.com" })).toThrow(
      new ConfigError(
        "SMTP_URL must start with smtp:// or smtps:// and name a host (got https://smtp.example.com)",
      ),
    );
    expect(() => parseConfig({ SMTP_URL: "not a url" })).toThrow(/^SMTP_URL must be a URL/);
    expect(() => parseConfig({ SMTP_FROM: "Stockbridge" })).toThrow(/^SMTP_FROM must be an address/);
  });
});

async function onlyDelivery(api: ReturnType<TestApp["client"]>) {
  const { deliveries } = await api.call("alertDeliveries");
  expect(deliveries).toHaveLength(1);
  return deliveries[0]!;
}
