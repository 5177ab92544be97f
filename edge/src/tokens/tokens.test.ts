import { contract, type Endpoint, type EndpointName } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { createTestApp, failure, grantSubscription, type TestApp } from "../../testing/helpers.ts";

/** A signed-in user and one personal token of theirs, created through the API. */
async function userWithToken(
  test: TestApp,
  body: { name: string; expiresInDays?: number } = { name: "cron" },
) {
  const user = await test.registerUser();
  const created = await test.client(user.token).call("createToken", { body });
  return { user, created, session: test.client(user.token), bearer: test.client(created.token) };
}

describe("creating a personal API token", () => {
  it("answers the sbk_ token once with its id, name, prefix and dates, and lists it without the secret", async () => {
    const test = await createTestApp();
    const { created, session } = await userWithToken(test, { name: "  Nightly sync ", expiresInDays: 30 });

    expect(created.token).toMatch(/^sbk_[A-Za-z0-9_-]{43}$/);
    expect(created).toEqual({
      token: created.token,
      _id: expect.any(String),
      name: "Nightly sync",
      prefix: created.token.slice(0, 12),
      createdAt: "2026-11-21T10:00:00.000Z",
      expiresAt: "2026-12-21T10:00:00.000Z",
    });
    const listed = await session.call("listTokens");
    expect(listed).toEqual([
      {
        _id: created._id,
        name: "Nightly sync",
        prefix: created.prefix,
        createdAt: created.createdAt,
        expiresAt: created.expiresAt,
        lastUsedAt: null,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(created.token.slice(12));
  });

  it("stores only the SHA-256 of the token, never the token itself", async () => {
    const test = await createTestApp();
    const { created } = await userWithToken(test);

    const rows = (await test.db.execute("SELECT * FROM personal_tokens")).rows;
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(created.token);
    expect(stored).not.toContain(created.token.slice(12));
    const digest = new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(created.token)),
    );
    expect(rows[0]?.token_hash).toBe(Buffer.from(digest).toString("hex"));
  });

  it("gives two tokens of the same name different secrets", async () => {
    const test = await createTestApp();
    const { created, session } = await userWithToken(test, { name: "twin" });
    const second = await session.call("createToken", { body: { name: "twin" } });
    expect(second.token).not.toBe(created.token);
    expect(second.expiresAt).toBeNull();
  });

  it.each([
    [{}, "name", "name is required"],
    [{ name: "   " }, "name", "name is required"],
    [{ name: "x".repeat(101) }, "name", "name must be at most 100 characters"],
    [{ name: "line\nbreak" }, "name", "name must not contain control characters"],
    [{ name: 42 }, "name", "name is required"],
    [{ name: "ok", expiresInDays: 0 }, "expiresInDays", "expiresInDays must be at least 1"],
    [{ name: "ok", expiresInDays: 3651 }, "expiresInDays", "expiresInDays must be at most 3650"],
    [{ name: "ok", expiresInDays: 1.5 }, "expiresInDays", "expiresInDays must be a whole number of days"],
    [{ name: "ok", expiresInDays: "30" }, "expiresInDays", "expiresInDays must be a whole number of days"],
  ])("refuses %j with a 400 naming %s", async (body, path, message) => {
    const test = await createTestApp();
    const user = await test.registerUser();
    const response = await test.request("/api/tokens", { token: user.token, body });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "VALIDATION_FAILED", errors: [{ path, message }] });
  });

  it("refuses a 51st token until one is revoked", async () => {
    const test = await createTestApp();
    const user = await test.registerUser();
    const session = test.client(user.token);
    const made = [];
    for (let index = 0; index < 50; index += 1) {
      made.push(await session.call("createToken", { body: { name: `token ${index}` } }));
    }
    const refused = await failure(session.call("createToken", { body: { name: "one too many" } }));
    expect(refused.status).toBe(409);
    expect(refused.message).toContain("you already have 50");
    await session.call("revokeToken", { params: { id: made[0]?._id ?? "" } });
    await session.call("createToken", { body: { name: "one too many" } });
  });
});

describe("a personal API token as a Bearer token", () => {
  it("calls what its owner may call, subscriber routes included", async () => {
    const test = await createTestApp();
    const { user, bearer } = await userWithToken(test);
    expect((await bearer.call("me")).user.email).toBe(user.email);

    const gated = await failure(bearer.call("listSchedules"));
    expect(gated.status).toBe(403);
    expect(gated.message).toBe("A subscription is required to access this service.");

    await grantSubscription(test.db, user.user._id);
    expect(await bearer.call("listSchedules")).toMatchObject({ schedules: [] });
  });

  it("stops working at once when revoked, and a second revoke is a 404", async () => {
    const test = await createTestApp();
    const { created, session, bearer } = await userWithToken(test);
    await bearer.call("me");

    await session.call("revokeToken", { params: { id: created._id } });
    const refused = await failure(bearer.call("me"));
    expect(refused.status).toBe(401);
    expect(refused.message).toBe("This API token is invalid, expired or revoked.");
    expect(await session.call("listTokens")).toEqual([]);
    expect((await failure(session.call("revokeToken", { params: { id: created._id } }))).status).toBe(404);
  });

  it("answers 401 once it has expired, and works until then", async () => {
    const test = await createTestApp();
    const { bearer } = await userWithToken(test, { name: "short", expiresInDays: 1 });
    test.clock.advance(86_400_000 - 1);
    await bearer.call("me");
    test.clock.advance(1);
    const expired = await failure(bearer.call("me"));
    expect(expired.status).toBe(401);
    expect(expired.message).toBe("This API token is invalid, expired or revoked.");
  });

  it("answers 401 to a token that was never issued, well-formed or not", async () => {
    const test = await createTestApp();
    await userWithToken(test);
    for (const token of [`sbk_${"A".repeat(43)}`, "sbk_short", "sbk_"]) {
      const response = await test.request("/api/auth/me", { token });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({
        message: "This API token is invalid, expired or revoked.",
      });
    }
  });

  it("keeps its owner's session alive when the token is revoked, and outlives a sign-out", async () => {
    const test = await createTestApp();
    const { created, session } = await userWithToken(test);
    await session.call("revokeToken", { params: { id: created._id } });
    await session.call("me");

    const other = await session.call("createToken", { body: { name: "after" } });
    await session.call("logout");
    await test.client(other.token).call("me");
  });
});

describe("what a personal API token may not do", () => {
  /** A request to the endpoint with the token and a harmless body and id; only the answer's gate matters. */
  function callWith(test: TestApp, name: EndpointName, token: string) {
    const endpoint = contract[name];
    const path = endpoint.path.replace(":id", "some-id");
    return test.request(`/api${path}`, {
      method: endpoint.method,
      token,
      ...(endpoint.method === "GET" || endpoint.method === "DELETE" ? {} : { body: {} }),
    });
  }

  it("refuses every token and billing endpoint and the password change with a 403 naming the action", async () => {
    const test = await createTestApp();
    const { user, created } = await userWithToken(test);
    // A subscriber, so no refusal below is the subscription gate's.
    await grantSubscription(test.db, user.user._id);
    const refused = (Object.keys(contract) as EndpointName[]).filter(
      (name) =>
        contract[name].path.startsWith("/tokens") ||
        contract[name].path.startsWith("/subscriptions") ||
        name === "changePassword",
    );
    expect(refused).toHaveLength(11);
    for (const name of refused) {
      const response = await callWith(test, name, created.token);
      const body = (await response.json()) as { message: string; code: string };
      expect({ name, status: response.status, code: body.code }).toEqual({
        name,
        status: 403,
        code: "PERSONAL_TOKEN_FORBIDDEN",
      });
      expect(body.message).toMatch(/^Personal API tokens cannot \w+/);
    }
    const password = await callWith(test, "changePassword", created.token);
    expect(await password.json()).toMatchObject({
      message:
        "Personal API tokens cannot change the password. Sign in with your email and password to do this.",
    });
    const checkout = await callWith(test, "createCheckoutSession", created.token);
    expect(((await checkout.json()) as { message: string }).message).toContain("cannot open a checkout");
  });

  it("is refused exactly on the endpoints the contract marks session-only", async () => {
    const test = await createTestApp();
    const { user, created } = await userWithToken(test);
    await grantSubscription(test.db, user.user._id);
    const names = Object.keys(contract) as EndpointName[];
    const documented = names.filter((name) => {
      const endpoint: Endpoint = contract[name];
      return endpoint.sessionOnly !== undefined;
    });
    expect(documented).toHaveLength(13);
    for (const name of names) {
      if (contract[name].access === "public") continue;
      const response = await callWith(test, name, created.token);
      const body = (await response.json().catch(() => ({}))) as { code?: string };
      expect({ name, refused: body.code === "PERSONAL_TOKEN_FORBIDDEN" }).toEqual({
        name,
        refused: documented.includes(name),
      });
    }
  });

  it("cannot sign out: it has no session, so revoking is how it ends", async () => {
    const test = await createTestApp();
    const { bearer } = await userWithToken(test);
    const refused = await failure(bearer.call("logout"));
    expect(refused.status).toBe(403);
    expect(refused.message).toContain("revoke the token in Settings > API Tokens");
    await bearer.call("me");
  });

  it("cannot be refreshed into a session token", async () => {
    const test = await createTestApp();
    const { created } = await userWithToken(test);
    const refused = await failure(test.client().call("refresh", { body: { token: created.token } }));
    expect(refused.status).toBe(401);
  });
});

describe("tokens are their owner's", () => {
  it("lists only the caller's tokens and answers 404 to revoking another user's", async () => {
    const test = await createTestApp();
    const owner = await userWithToken(test, { name: "owner's" });
    const stranger = await userWithToken(test, { name: "stranger's" });

    expect((await stranger.session.call("listTokens")).map((token) => token.name)).toEqual(["stranger's"]);
    const refused = await failure(
      stranger.session.call("revokeToken", { params: { id: owner.created._id } }),
    );
    expect(refused.status).toBe(404);
    expect(refused.message).toBe("API token not found");
    await owner.bearer.call("me");
  });
});

describe("lastUsedAt", () => {
  it("records the first use and then at most one write a minute", async () => {
    const test = await createTestApp();
    const { session, bearer } = await userWithToken(test);
    const lastUsed = async () => (await session.call("listTokens"))[0]?.lastUsedAt;
    expect(await lastUsed()).toBeNull();

    await bearer.call("me");
    expect(await lastUsed()).toBe("2026-11-21T10:00:00.000Z");

    test.clock.advance(59_999);
    await bearer.call("me");
    expect(await lastUsed()).toBe("2026-11-21T10:00:00.000Z");

    test.clock.advance(1);
    await bearer.call("me");
    expect(await lastUsed()).toBe("2026-11-21T10:01:00.000Z");
  });

  it("is not moved by a refused call's failed authentication or by the owner's own session", async () => {
    const test = await createTestApp();
    const { session, created } = await userWithToken(test);
    await session.call("me");
    const last = created.token.at(-1) === "A" ? "B" : "A";
    await test.request("/api/auth/me", { token: `${created.token.slice(0, -1)}${last}` });
    expect((await session.call("listTokens"))[0]?.lastUsedAt).toBeNull();
  });
});
