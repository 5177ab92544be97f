import { ApiError } from "@stockbridge/shared";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { createTestApp, TEST_JWT_SECRET } from "../../testing/helpers.ts";

describe("register", () => {
  it("creates an account and answers the spec's user object with a token", async () => {
    const { client } = await createTestApp();
    const result = await client().call("register", {
      body: { name: "Ada Lovelace", email: "Ada@Example.com", password: "Passw0rd" },
    });
    expect(result.token).toMatch(/^ey/);
    expect(result.user).toMatchObject({
      name: "Ada Lovelace",
      email: "Ada@Example.com",
      profileImage: null,
      subscription: null,
      acumaticaConnection: null,
      shopifyConnection: null,
    });
    expect(JSON.stringify(result)).not.toMatch(/pbkdf2|password/i);
  });

  it("refuses an email that is already registered, whatever its case", async () => {
    const { client } = await createTestApp();
    await client().call("register", {
      body: { name: "Ada", email: "ada@example.com", password: "Passw0rd" },
    });
    const error = await client()
      .call("register", { body: { name: "Ada", email: "ADA@example.com ", password: "Passw0rd" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).message).toBe("An account with this email already exists");
  });

  it.each([
    [{ name: "", email: "a@b.co", password: "Passw0rd" }, "name", "Name is required"],
    [
      { name: "R2D2", email: "a@b.co", password: "Passw0rd" },
      "name",
      "Name should only contain letters and spaces",
    ],
    [{ name: "Ann", email: "", password: "Passw0rd" }, "email", "Email is required"],
    [{ name: "Ann", email: "not-an-email", password: "Passw0rd" }, "email", "Invalid email address"],
    [{ name: "Ann", email: "a@b.co", password: "" }, "password", "Password is required"],
    [
      { name: "Ann", email: "a@b.co", password: "Pa1" },
      "password",
      "Password must be at least 6 characters long",
    ],
    [
      { name: "Ann", email: "a@b.co", password: "PASSW0RD" },
      "password",
      "Password must contain at least one lowercase letter",
    ],
    [
      { name: "Ann", email: "a@b.co", password: "passw0rd" },
      "password",
      "Password must contain at least one uppercase letter",
    ],
    [
      { name: "Ann", email: "a@b.co", password: "Password" },
      "password",
      "Password must contain at least one number",
    ],
    [{ email: "a@b.co", password: "Passw0rd" }, "name", "Name is required"],
    [{ name: 42, email: "a@b.co", password: "Passw0rd" }, "name", "Name is required"],
  ])("answers 400 naming the field for %j", async (body, path, message) => {
    const { request } = await createTestApp();
    const response = await request("/api/auth/register", { body });
    expect(response.status).toBe(400);
    const answer = await response.json();
    expect(answer.code).toBe("VALIDATION_FAILED");
    expect(answer.errors).toContainEqual({ path, message });
  });

  it("answers 400, not 500, for a body that is not JSON", async () => {
    const { request } = await createTestApp();
    const response = await request("/api/auth/register", { body: "{nope" });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("The request body must be valid JSON");
  });

  it("stores a PBKDF2-SHA256 hash at the configured cost, never the password", async () => {
    const { db, registerUser } = await createTestApp({ env: { PASSWORD_ITERATIONS: "600000" } });
    await registerUser({ password: "Sup3rSecret" });
    const row = (await db.execute("SELECT password_hash FROM users")).rows[0];
    expect(String(row?.password_hash)).toMatch(/^pbkdf2-sha256\$600000\$/);
    expect(String(row?.password_hash)).not.toContain("Sup3rSecret");
  });
});

describe("login", () => {
  it("signs in with the registered password, email case-insensitively", async () => {
    const { client, registerUser } = await createTestApp();
    const user = await registerUser();
    const result = await client().call("login", {
      body: { email: user.email.toUpperCase(), password: user.password },
    });
    expect(result.user._id).toBe(user.user._id);
  });

  it("gives the same answer for a wrong password and an unknown email", async () => {
    const { request, registerUser } = await createTestApp();
    const user = await registerUser();
    const wrongPassword = await request("/api/auth/login", {
      body: { email: user.email, password: "Wrong1pass" },
    });
    const unknownEmail = await request("/api/auth/login", {
      body: { email: "nobody@example.com", password: "Wrong1pass" },
    });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(await wrongPassword.json()).toEqual(await unknownEmail.json());
  });

  it("validates the form with the spec's messages", async () => {
    const { request } = await createTestApp();
    const response = await request("/api/auth/login", { body: { email: "", password: "" } });
    expect(response.status).toBe(400);
    const answer = await response.json();
    expect(answer.errors).toEqual(
      expect.arrayContaining([
        { path: "email", message: "Email is required" },
        { path: "password", message: "Password is required" },
      ]),
    );
  });

  it("limits failed attempts per account and address with a 429 that says when to retry", async () => {
    const { request, registerUser, clock } = await createTestApp();
    const user = await registerUser();
    for (let i = 0; i < 5; i += 1) {
      expect(
        (await request("/api/auth/login", { body: { email: user.email, password: "Wrong1pass" } })).status,
      ).toBe(401);
    }
    const limited = await request("/api/auth/login", {
      body: { email: user.email, password: user.password },
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBeTruthy();
    expect((await limited.json()).message).toMatch(
      /Too many sign-in attempts\. Please wait \d+ minutes? and try again\./,
    );

    clock.advance(16 * 60_000);
    expect(
      (await request("/api/auth/login", { body: { email: user.email, password: user.password } })).status,
    ).toBe(200);
  });
});

describe("sessions", () => {
  it("answers me with the signed-in user", async () => {
    const { client, registerUser } = await createTestApp();
    const user = await registerUser({ name: "Grace Hopper" });
    const me = await client(user.token).call("me");
    expect(me.user.name).toBe("Grace Hopper");
  });

  it("refuses the old token after logout", async () => {
    const { client, request, registerUser } = await createTestApp();
    const user = await registerUser();
    await client(user.token).call("logout");
    expect((await request("/api/auth/me", { token: user.token })).status).toBe(401);
    expect((await request("/api/auth/refresh", { body: { token: user.token } })).status).toBe(401);
  });

  it("refreshes a valid token and a recently expired one, but not an old one", async () => {
    const { client, request, registerUser, clock } = await createTestApp();
    const user = await registerUser();
    const fresh = await client().call("refresh", { body: { token: user.token } });
    expect(fresh.user._id).toBe(user.user._id);

    clock.advance(2 * 3_600_000);
    expect((await request("/api/auth/me", { token: user.token })).status).toBe(401);
    const renewed = await client().call("refresh", { body: { token: user.token } });
    expect((await request("/api/auth/me", { token: renewed.token })).status).toBe(200);

    clock.advance(8 * 24 * 3_600_000);
    expect((await request("/api/auth/refresh", { body: { token: user.token } })).status).toBe(401);
  });

  it("says 'No refresh token available' when refresh gets no token", async () => {
    const { request } = await createTestApp();
    const response = await request("/api/auth/refresh", { body: {} });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("No refresh token available");
  });

  it("revokes every session when the password changes", async () => {
    const { client, request, registerUser } = await createTestApp();
    const user = await registerUser();
    const other = await client().call("login", { body: { email: user.email, password: user.password } });
    await client(user.token).call("changePassword", {
      body: { currentPassword: user.password, newPassword: "N3wPassword" },
    });
    expect((await request("/api/auth/me", { token: user.token })).status).toBe(401);
    expect((await request("/api/auth/me", { token: other.token })).status).toBe(401);
    await client().call("login", { body: { email: user.email, password: "N3wPassword" } });
  });

  it("rejects a tampered token", async () => {
    const { request, registerUser } = await createTestApp();
    const user = await registerUser();
    const [header, payload, signature] = user.token.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: "someone-else" })).toString("base64url");
    expect((await request("/api/auth/me", { token: `${header}.${forged}.${signature}` })).status).toBe(401);
  });

  it("rejects an alg:none token and one signed with another secret", async () => {
    const { request, registerUser } = await createTestApp();
    const user = await registerUser();
    const claims = JSON.parse(Buffer.from(user.token.split(".")[1]!, "base64url").toString());
    const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;
    expect((await request("/api/auth/me", { token: none })).status).toBe(401);
    const otherKey = new TextEncoder().encode(`${TEST_JWT_SECRET}-not`);
    const foreign = await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(otherKey);
    expect((await request("/api/auth/me", { token: foreign })).status).toBe(401);
  });

  it("never lets one user's token read another user's data", async () => {
    const { client, registerUser } = await createTestApp();
    const alice = await registerUser({ name: "Alice" });
    const bob = await registerUser({ name: "Bob" });
    expect((await client(alice.token).call("me")).user.name).toBe("Alice");
    expect((await client(bob.token).call("me")).user.name).toBe("Bob");
  });
});
