import { describe, expect, it } from "vitest";
import { everyQuarter } from "../../testing/alerts-harness.ts";
import { createTestApp, failure, type TestApp } from "../../testing/helpers.ts";
import { registerSubscriber } from "../../testing/mapping-fixtures.ts";

const MINUTE = 60_000;

async function subscriberWithSchedules(app: TestApp, names: string[]) {
  const subscriber = await registerSubscriber(app);
  for (const name of names) await subscriber.api.call("createSchedule", { body: everyQuarter(name) });
  return subscriber;
}

describe("a schedule the cron did not run in time", () => {
  it("is alerted once when the tick comes more than 10 minutes after its time, and still runs", async () => {
    const app = await createTestApp();
    const { api } = await subscriberWithSchedules(app, ["Nightly prices"]);

    // Due at 10:15; the cron was down until 10:26.
    app.clock.advance(26 * MINUTE);
    expect((await app.app.tick()).ran).toHaveLength(1);
    await app.app.tick();

    const { notifications, unread } = await api.call("listNotifications");
    expect(unread).toBe(1);
    expect(notifications).toEqual([
      {
        _id: expect.any(String),
        kind: "missed",
        title: "Scheduled sync missed: Nightly prices",
        body: "Nightly prices was due at Nov 21, 2026, 10:15 (UTC) and started 11 minutes late: the scheduler did not run in time.",
        historyId: null,
        createdAt: "2026-11-21T10:26:00.000Z",
        readAt: null,
      },
    ]);
  });

  it("is not alerted when the tick comes within 10 minutes of its time", async () => {
    const app = await createTestApp();
    const { api } = await subscriberWithSchedules(app, ["Nightly prices"]);

    app.clock.advance(25 * MINUTE);
    expect((await app.app.tick()).ran).toHaveLength(1);

    expect(await api.call("listNotifications")).toEqual({ notifications: [], unread: 0 });
  });
});

describe("GET /api/notifications and marking them read", () => {
  it("lists newest first, pages with limit, and counts every unread one", async () => {
    const app = await createTestApp();
    const { api } = await registerSubscriber(app);
    const daily = (name: string, time: string) =>
      everyQuarter(name, {
        schedule: { type: "daily", time, day: null, interval: null, minuteInterval: null },
      });
    await api.call("createSchedule", { body: daily("First", "10:15") });
    await api.call("createSchedule", { body: daily("Second", "10:40") });
    app.clock.advance(30 * MINUTE);
    await app.app.tick();
    app.clock.advance(26 * MINUTE);
    await app.app.tick();

    const all = await api.call("listNotifications");
    expect(all.notifications.map((n) => n.title)).toEqual([
      "Scheduled sync missed: Second",
      "Scheduled sync missed: First",
    ]);
    const second = await api.call("listNotifications", { query: { page: "2", limit: "1" } });
    expect(second).toEqual({ notifications: [all.notifications[1]], unread: 2 });
  });

  it("marks one read (a second read keeps the first time), then all; another user's id is 404 and stays unread", async () => {
    const app = await createTestApp();
    const { api, token } = await subscriberWithSchedules(app, ["First", "Second"]);
    app.clock.advance(30 * MINUTE);
    await app.app.tick();
    const [newest, older] = (await api.call("listNotifications")).notifications;
    const stranger = await registerSubscriber(app);

    const foreign = await app.request(`/api/notifications/${newest!._id}/read`, {
      method: "POST",
      token: stranger.token,
    });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ message: "Notification not found", code: "NOT_FOUND" });
    expect((await api.call("listNotifications")).unread).toBe(2);

    const read = await api.call("readNotification", { params: { id: newest!._id } });
    expect(read).toEqual({ notification: { ...newest, readAt: "2026-11-21T10:30:00.000Z" }, unread: 1 });
    app.clock.advance(MINUTE);
    const again = await api.call("readNotification", { params: { id: newest!._id } });
    expect(again.notification.readAt).toBe("2026-11-21T10:30:00.000Z");

    const response = await app.request("/api/notifications/read-all", { method: "POST", token });
    expect(await response.json()).toEqual({ data: { unread: 0 } });
    const after = await api.call("listNotifications");
    expect(after.unread).toBe(0);
    expect(after.notifications.find((n) => n._id === older!._id)?.readAt).toBe("2026-11-21T10:31:00.000Z");
    expect(after.notifications.find((n) => n._id === newest!._id)?.readAt).toBe("2026-11-21T10:30:00.000Z");
  });

  it("shows each user only their own notifications", async () => {
    const app = await createTestApp();
    const owner = await subscriberWithSchedules(app, ["Mine"]);
    const stranger = await registerSubscriber(app);
    app.clock.advance(30 * MINUTE);
    await app.app.tick();

    expect((await owner.api.call("listNotifications")).unread).toBe(1);
    expect(await stranger.api.call("listNotifications")).toEqual({ notifications: [], unread: 0 });
  });

  it("asks for a session", async () => {
    const app = await createTestApp();
    expect((await app.request("/api/notifications")).status).toBe(401);
    expect((await app.request("/api/notifications/read-all", { method: "POST" })).status).toBe(401);
  });
});

describe("GET/PUT /api/settings/notifications", () => {
  const saved = {
    email: "alerts@example.com",
    webhookUrl: "https://hooks.example.com/stockbridge",
    onFailed: true,
    onPartial: true,
    onMissed: false,
    onHeld: true,
  };

  it("defaults to the account's email with failures and missed runs on, then keeps what is saved", async () => {
    const app = await createTestApp();
    const { user, token } = await app.registerUser();
    const api = app.client(token);

    expect(await api.call("notificationSettings")).toEqual({
      email: user.email,
      webhookUrl: null,
      onFailed: true,
      onPartial: false,
      onMissed: true,
      onHeld: false,
      webhookSecretSet: false,
      webhookSecretCreatedAt: null,
      emailEnabled: false,
    });

    expect(await api.call("saveNotificationSettings", { body: saved })).toMatchObject(saved);
    expect(await api.call("notificationSettings")).toMatchObject(saved);

    // Blank turns a channel off.
    const off = await api.call("saveNotificationSettings", {
      body: { ...saved, email: "  ", webhookUrl: "" },
    });
    expect(off).toMatchObject({ email: null, webhookUrl: null });
    const stranger = await app.registerUser();
    expect(await app.client(stranger.token).call("notificationSettings")).toMatchObject({
      email: stranger.user.email,
      onPartial: false,
    });
  });

  it("says email is on when SMTP_URL is configured", async () => {
    const app = await createTestApp({ env: { SMTP_URL: "smtp://127.0.0.1:2525" } });
    const { token } = await app.registerUser();
    expect(await app.client(token).call("notificationSettings")).toMatchObject({ emailEnabled: true });
  });

  it.each([
    [{ ...saved, email: "not-an-address" }, "email", "email must be an email address"],
    [{ ...saved, email: 42 }, "email", "email must be text or null"],
    [
      { ...saved, webhookUrl: "ftp://hooks.example.com" },
      "webhookUrl",
      "webhookUrl must be an http:// or https:// URL",
    ],
    [{ ...saved, webhookUrl: "hooks" }, "webhookUrl", "webhookUrl must be an http:// or https:// URL"],
    [
      { ...saved, webhookUrl: `https://example.com/${"x".repeat(2100)}` },
      "webhookUrl",
      "webhookUrl must be at most 2048 characters",
    ],
    [{ ...saved, onFailed: "yes" }, "onFailed", "onFailed must be true or false"],
    [
      { email: null, webhookUrl: null, onFailed: true, onPartial: true, onMissed: true },
      "onHeld",
      "onHeld is required",
    ],
  ])("answers 400 naming the field and the rule (%#)", async (body, path, message) => {
    const app = await createTestApp();
    const { token } = await app.registerUser();
    const response = await app.request("/api/settings/notifications", { method: "PUT", token, body });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      message,
      code: "VALIDATION_FAILED",
      errors: [{ path, message }],
    });
    expect(await app.client(token).call("notificationSettings")).toMatchObject({ webhookUrl: null });
  });

  it("refuses a webhook to addresses connections may not call either", async () => {
    const app = await createTestApp();
    const { token } = await app.registerUser();
    const api = app.client(token);
    for (const [url, rule] of [
      ["http://169.254.169.254/latest", "a cloud metadata address"],
      ["http://169.254.10.1/hook", "a link-local address"],
      ["http://metadata.google.internal/", "cloud metadata service"],
      ["http://127.0.0.1:8080/hook", "a loopback address"],
      ["https://user:pass@hooks.example.com/", "must not contain a user name or password"],
    ] as const) {
      const refused = await failure(
        api.call("saveNotificationSettings", { body: { ...saved, webhookUrl: url } }),
      );
      expect(refused.status, url).toBe(400);
      expect(refused.message, url).toMatch(/^webhookUrl is not allowed: /);
      expect(refused.message, url).toContain(rule);
    }
    expect(await api.call("notificationSettings")).toMatchObject({ webhookUrl: null });
  });

  it("takes a loopback receiver where the server allows private networks (sandbox mode)", async () => {
    const app = await createTestApp({ env: { ALLOW_PRIVATE_NETWORK: "true" } });
    const { token } = await app.registerUser();
    const body = { ...saved, webhookUrl: "http://127.0.0.1:8080/hook" };
    expect(await app.client(token).call("saveNotificationSettings", { body })).toMatchObject({
      webhookUrl: "http://127.0.0.1:8080/hook",
    });
  });

  it("asks for https in production", async () => {
    const app = await createTestApp({
      env: {
        APP_ENV: "production",
        PASSWORD_ITERATIONS: "600000",
        LIBSQL_URL: "file:unused.db",
      },
    });
    const { token } = await app.registerUser({ password: "Passw0rd" });
    const refused = await failure(
      app.client(token).call("saveNotificationSettings", {
        body: { ...saved, webhookUrl: "http://hooks.example.com/stockbridge" },
      }),
    );
    expect(refused).toMatchObject({
      status: 400,
      message: "webhookUrl is not allowed: the address must use https://",
    });
  });
});

describe("POST /api/settings/notifications/webhook-secret", () => {
  it("answers a new secret once, never again, and a rotation replaces it", async () => {
    const app = await createTestApp();
    const { token } = await app.registerUser();
    const api = app.client(token);

    const first = await api.call("createWebhookSecret");
    expect(first).toEqual({
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      createdAt: "2026-11-21T10:00:00.000Z",
    });
    const settings = await app.request("/api/settings/notifications", { token });
    const text = await settings.text();
    expect(text).not.toContain(first.secret);
    expect(JSON.parse(text).data).toMatchObject({
      webhookSecretSet: true,
      webhookSecretCreatedAt: first.createdAt,
    });
    const stored = await app.db.execute("SELECT secret_sealed FROM webhook_secrets");
    expect(String(stored.rows[0]?.secret_sealed)).not.toContain(first.secret.slice(6));

    app.clock.advance(MINUTE);
    const second = await api.call("createWebhookSecret");
    expect(second.secret).not.toBe(first.secret);
    expect(await api.call("notificationSettings")).toMatchObject({
      webhookSecretCreatedAt: second.createdAt,
    });
  });

  it("is refused to a personal API token", async () => {
    const app = await createTestApp();
    const { token } = await app.registerUser();
    const created = await app.client(token).call("createToken", { body: { name: "script" } });
    const refused = await failure(app.client(created.token).call("createWebhookSecret"));
    expect(refused).toMatchObject({
      status: 403,
      message:
        "Personal API tokens cannot create webhook signing secrets. Sign in with your email and password to do this.",
    });
    expect(await app.client(token).call("notificationSettings")).toMatchObject({ webhookSecretSet: false });
  });
});
