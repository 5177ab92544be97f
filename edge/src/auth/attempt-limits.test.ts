import { describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/helpers.ts";
import { ConfigError, parseConfig } from "../config.ts";
import { clientAddressOf } from "./client-address.ts";

// The socket address each request comes from, as the runtime would report it (main.ts: Deno's
// connection info); requests without the header come from the harness's usual address.
const PEER_HEADER = "X-Test-Peer";

async function createLimitsApp() {
  return createTestApp({
    deps: { remoteAddress: (c) => c.req.header(PEER_HEADER) ?? "203.0.113.7" },
  });
}

function signIn(app: TestApp, from: string, body: { email: string; password: string }) {
  return app.request("/api/auth/login", { body, headers: { [PEER_HEADER]: from } });
}

async function signInStatus(app: TestApp, from: string, body: { email: string; password: string }) {
  return (await signIn(app, from, body)).status;
}

const WRONG = "Wrong1pass";
const OFFICE = "198.51.100.10";

describe("sign-in limits", () => {
  it("locks one account out of one address after 5 failures, until the oldest is 15 minutes old", async () => {
    const app = await createLimitsApp();
    const user = await app.registerUser();
    for (let i = 0; i < 5; i += 1) {
      expect(await signInStatus(app, OFFICE, { email: user.email, password: WRONG })).toBe(401);
      app.clock.advance(60_000);
    }
    const limited = await signIn(app, OFFICE, { email: user.email, password: user.password });
    expect(limited.status).toBe(429);
    // The first failure is 5 minutes old: it leaves the window in 10.
    expect(limited.headers.get("Retry-After")).toBe("600");
    expect((await limited.json()).message).toBe(
      "Too many sign-in attempts. Please wait 10 minutes and try again.",
    );

    app.clock.advance(10 * 60_000);
    expect(await signInStatus(app, OFFICE, { email: user.email, password: user.password })).toBe(200);
  });

  it("still signs a colleague in behind the same office address after 40 failures against four accounts", async () => {
    const app = await createLimitsApp();
    const victims = [];
    for (let i = 0; i < 4; i += 1) victims.push(await app.registerUser());
    const colleague = await app.registerUser();
    for (const victim of victims) {
      for (let i = 0; i < 10; i += 1) await signIn(app, OFFICE, { email: victim.email, password: WRONG });
    }

    expect(await signInStatus(app, OFFICE, { email: colleague.email, password: colleague.password })).toBe(
      200,
    );
  });

  it("lets the owner sign in from another address while one address is locked out of the account", async () => {
    const app = await createLimitsApp();
    const user = await app.registerUser();
    for (let i = 0; i < 10; i += 1) await signIn(app, "192.0.2.66", { email: user.email, password: WRONG });
    expect(await signInStatus(app, "192.0.2.66", { email: user.email, password: user.password })).toBe(429);

    expect(await signInStatus(app, OFFICE, { email: user.email, password: user.password })).toBe(200);
  });

  it("counts every address of one IPv6 /64 as one address", async () => {
    const app = await createLimitsApp();
    const user = await app.registerUser();
    for (let host = 1; host <= 5; host += 1) {
      expect(await signInStatus(app, `2001:db8:7:7::${host}`, { email: user.email, password: WRONG })).toBe(
        401,
      );
    }
    expect(await signInStatus(app, "2001:db8:7:7::99", { email: user.email, password: user.password })).toBe(
      429,
    );
    expect(await signInStatus(app, "2001:db8:7:8::1", { email: user.email, password: user.password })).toBe(
      200,
    );
  });

  it("clears only its own address's failures when the password is right", async () => {
    const app = await createLimitsApp();
    const user = await app.registerUser();
    for (let i = 0; i < 4; i += 1) {
      await signIn(app, OFFICE, { email: user.email, password: WRONG });
      await signIn(app, "192.0.2.66", { email: user.email, password: WRONG });
    }
    expect(await signInStatus(app, OFFICE, { email: user.email, password: user.password })).toBe(200);

    // The office starts again at 5; the other address still has its 4 failures.
    for (let i = 0; i < 5; i += 1) {
      expect(await signInStatus(app, OFFICE, { email: user.email, password: WRONG })).toBe(401);
    }
    expect(await signInStatus(app, OFFICE, { email: user.email, password: WRONG })).toBe(429);
    expect(await signInStatus(app, "192.0.2.66", { email: user.email, password: WRONG })).toBe(401);
    expect(await signInStatus(app, "192.0.2.66", { email: user.email, password: WRONG })).toBe(429);
  });

  it("slows an account guessed at from many addresses to one check per 30 s, except from addresses it signed in from", async () => {
    const app = await createLimitsApp();
    const user = await app.registerUser();
    expect(await signInStatus(app, OFFICE, { email: user.email, password: user.password })).toBe(200);
    for (let address = 1; address <= 4; address += 1) {
      for (let i = 0; i < 5; i += 1) {
        expect(await signInStatus(app, `192.0.2.${address}`, { email: user.email, password: WRONG })).toBe(
          401,
        );
      }
    }

    // 20 failures: the next guess from a fifth address waits for the account's slot.
    const guess = await signIn(app, "192.0.2.5", { email: user.email, password: WRONG });
    expect(guess.status).toBe(429);
    expect(guess.headers.get("Retry-After")).toBe("30");
    expect((await guess.json()).message).toBe(
      "Too many sign-in attempts. Please wait 30 seconds and try again.",
    );
    // The owner at the office is not slowed; from a new address they wait for the next slot.
    expect(await signInStatus(app, OFFICE, { email: user.email, password: user.password })).toBe(200);
    expect(await signInStatus(app, "192.0.2.77", { email: user.email, password: user.password })).toBe(429);
    app.clock.advance(30_000);
    expect(await signInStatus(app, "192.0.2.77", { email: user.email, password: user.password })).toBe(200);
    // That slot is used: the botnet's next guess waits again.
    expect(await signInStatus(app, "192.0.2.6", { email: user.email, password: WRONG })).toBe(429);
  });

  it("slows an address that sprays 20 accounts to one check per 5 s, except for accounts signed in from it", async () => {
    const app = await createLimitsApp();
    const regular = await app.registerUser();
    const newcomer = await app.registerUser();
    expect(await signInStatus(app, OFFICE, { email: regular.email, password: regular.password })).toBe(200);
    for (let i = 0; i < 20; i += 1) {
      expect(await signInStatus(app, OFFICE, { email: `sprayed${i}@example.com`, password: WRONG })).toBe(
        401,
      );
    }

    const spray = await signIn(app, OFFICE, { email: "sprayed20@example.com", password: WRONG });
    expect(spray.status).toBe(429);
    expect(spray.headers.get("Retry-After")).toBe("5");
    expect(await signInStatus(app, OFFICE, { email: regular.email, password: regular.password })).toBe(200);
    // Someone signing in from the office for the first time waits a few seconds at most.
    expect(await signInStatus(app, OFFICE, { email: newcomer.email, password: newcomer.password })).toBe(429);
    app.clock.advance(5_000);
    expect(await signInStatus(app, OFFICE, { email: newcomer.email, password: newcomer.password })).toBe(200);
    // Other addresses never noticed.
    expect(await signInStatus(app, "192.0.2.9", { email: "sprayed0@example.com", password: WRONG })).toBe(
      401,
    );
  });
});

describe("registration limits", () => {
  it("creates at most 10 accounts a minute from one address, then answers 429 with Retry-After", async () => {
    const app = await createLimitsApp();
    const register = (i: number) =>
      app.request("/api/auth/register", {
        body: { name: "Bulk User", email: `bulk${i}@example.com`, password: "Passw0rd" },
        headers: { [PEER_HEADER]: OFFICE },
      });
    for (let i = 0; i < 10; i += 1) expect((await register(i)).status).toBe(200);
    const limited = await register(10);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBe("60");
    expect((await limited.json()).message).toBe(
      "Too many accounts created from this address. Please wait 1 minute and try again.",
    );
    expect((await app.db.execute("SELECT count(*) AS n FROM users")).rows[0]?.n).toBe(10);

    app.clock.advance(60_000);
    expect((await register(11)).status).toBe(200);
  });

  it("takes the number a minute from REGISTRATIONS_PER_MINUTE", async () => {
    const app = await createTestApp({ env: { REGISTRATIONS_PER_MINUTE: "2" } });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) {
      const body = { name: "Bulk User", email: `few${i}@example.com`, password: "Passw0rd" };
      statuses.push((await app.request("/api/auth/register", { body })).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(() => parseConfig({ REGISTRATIONS_PER_MINUTE: "0" })).toThrow(
      'REGISTRATIONS_PER_MINUTE must be a whole number from 1 to 100000 (got "0")',
    );
  });
});

describe("password change limits", () => {
  it("checks 5 wrong current passwords, refuses the rest with 429, and takes the right one once the window passed", async () => {
    const app = await createLimitsApp();
    const user = await app.registerUser();
    const change = (currentPassword: string) =>
      app.request("/api/auth/password", {
        method: "PUT",
        token: user.token,
        body: { currentPassword, newPassword: "N3wPassword" },
      });
    for (let i = 0; i < 5; i += 1) expect((await change(WRONG)).status).toBe(400);
    const limited = await change(user.password);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBe("900");
    expect((await limited.json()).message).toBe(
      "Too many wrong current passwords. Please wait 15 minutes and try again.",
    );

    app.clock.advance(15 * 60_000);
    expect((await change(user.password)).status).toBe(200);
  });
});

describe("client address", () => {
  const behindOneProxy = { trustProxy: true, trustedProxyHops: 1 };

  it("takes the entry our proxy appended, not a forged left-most one", () => {
    expect(
      clientAddressOf(behindOneProxy, { forwardedFor: "203.0.113.50, 198.51.100.7", peer: "10.0.0.2" }),
    ).toBe("198.51.100.7");
  });

  it("skips as many entries from the right as there are proxies", () => {
    expect(
      clientAddressOf(
        { trustProxy: true, trustedProxyHops: 2 },
        { forwardedFor: "203.0.113.50, 198.51.100.7, 10.0.0.1", peer: "10.0.0.2" },
      ),
    ).toBe("198.51.100.7");
  });

  it("takes the left-most entry when the list is shorter than the proxies, and the peer without one", () => {
    const twoProxies = { trustProxy: true, trustedProxyHops: 2 };
    expect(clientAddressOf(twoProxies, { forwardedFor: "198.51.100.7", peer: "10.0.0.2" })).toBe(
      "198.51.100.7",
    );
    expect(clientAddressOf(behindOneProxy, { forwardedFor: undefined, peer: "10.0.0.2" })).toBe("10.0.0.2");
    expect(clientAddressOf(behindOneProxy, { forwardedFor: " , ", peer: "10.0.0.2" })).toBe("10.0.0.2");
  });

  it("takes an IPv6 client's /64 and an IPv4-mapped client's IPv4 address", () => {
    const direct = (peer: string) =>
      clientAddressOf({ trustProxy: false, trustedProxyHops: 1 }, { forwardedFor: undefined, peer });
    expect(direct("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(direct("[2001:0DB8:0001:0002:bbbb:cccc:dddd:eeee]")).toBe("2001:db8:1:2::/64");
    expect(direct("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(direct("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(direct("::ffff:c633:6407")).toBe("198.51.100.7");
    expect(direct("198.51.100.7")).toBe("198.51.100.7");
    expect(direct("not:an:address")).toBe("not:an:address");
  });

  it("ignores X-Forwarded-For without TRUST_PROXY", () => {
    expect(
      clientAddressOf(
        { trustProxy: false, trustedProxyHops: 1 },
        { forwardedFor: "203.0.113.50", peer: "198.51.100.7" },
      ),
    ).toBe("198.51.100.7");
  });

  it("refuses a TRUSTED_PROXY_HOPS that is not a whole number from 1 to 10", () => {
    expect(parseConfig({}).trustedProxyHops).toBe(1);
    expect(parseConfig({ TRUSTED_PROXY_HOPS: "2" }).trustedProxyHops).toBe(2);
    expect(() => parseConfig({ TRUSTED_PROXY_HOPS: "0" })).toThrow(ConfigError);
    expect(() => parseConfig({ TRUSTED_PROXY_HOPS: "one" })).toThrow(
      'TRUSTED_PROXY_HOPS must be a whole number from 1 to 10 (got "one")',
    );
  });
});
