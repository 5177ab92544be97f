import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { cliEnv, newConfigDir, runCli } from "../../testing/cli.ts";
import { newUser } from "../../testing/users.ts";

const REFUSED = "STOCKBRIDGE_TOKEN was refused: the API token is invalid, expired or revoked";

describe("tokens create|list|revoke", () => {
  it("prints a new token once, lists it without the secret, and revokes it so it stops working", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const env = { ...cliEnv(appUrl, { token: user.token }), NO_COLOR: "1" };

    const create = await runCli(["tokens", "create", "--name", "Nightly cron", "--expires-in-days", "30"], {
      env,
    });
    expect(create.code).toBe(0);
    const token = create.stdout.trim();
    expect(token).toMatch(/^sbk_[A-Za-z0-9_-]{43}$/);
    expect(create.stderr).toContain("Copy it now: it will not be shown again.");
    expect(create.stderr).toContain("Nightly cron");

    const list = await runCli(["tokens", "list"], { env });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/Nightly cron\s+sbk_\S{8}…\s+.+\s+Never\s+/);
    expect(list.stdout).not.toContain(token);

    const withToken = { ...cliEnv(appUrl, { token }), NO_COLOR: "1" };
    const whoami = await runCli(["whoami"], { env: withToken });
    expect(whoami.code).toBe(0);
    expect(whoami.stdout).toContain(`<${user.email}>`);

    const [listed] = JSON.parse((await runCli(["tokens", "list", "--json"], { env })).stdout);
    expect(listed).toMatchObject({ name: "Nightly cron", lastUsedAt: expect.any(String) });
    const revoke = await runCli(["tokens", "revoke", listed._id], { env });
    expect(revoke.code).toBe(0);
    expect(revoke.stdout.trim()).toBe("API token revoked");

    const after = await runCli(["whoami"], { env: withToken });
    expect(after.code).toBe(3);
    expect(after.stderr).toContain(REFUSED);
    expect(after.stderr).toContain("This API token is invalid, expired or revoked.");
  });

  it("prints the created data object with --json, and a revoke of an unknown id fails (exit 1)", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const env = cliEnv(appUrl, { token: user.token });

    const create = await runCli(["tokens", "create", "--name", "ci", "--json"], { env });
    expect(create.code).toBe(0);
    const data = JSON.parse(create.stdout);
    expect(data).toEqual({
      token: expect.stringMatching(/^sbk_/),
      _id: expect.any(String),
      name: "ci",
      prefix: data.token.slice(0, 12),
      createdAt: expect.any(String),
      expiresAt: null,
    });

    const unknown = await runCli(["tokens", "revoke", "no-such-token", "--json"], { env });
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr).error).toMatchObject({
      code: "NOT_FOUND",
      message: "API token not found",
    });
  });

  it("refuses a bad expiry (exit 2) and a missing name (exit 2) before calling the server", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const env = cliEnv(appUrl, { token: user.token });

    const zero = await runCli(["tokens", "create", "--name", "x", "--expires-in-days", "0"], { env });
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain("--expires-in-days must be a whole number from 1 to 3650.");
    const nameless = await runCli(["tokens", "create"], { env });
    expect(nameless.code).toBe(2);
    expect(nameless.stderr).toContain("--name <name>");
  });
});

describe("STOCKBRIDGE_TOKEN with a personal API token", () => {
  it("cannot manage tokens: the server's 403 names the action (exit 1)", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const { token } = await user.api.call("createToken", { body: { name: "script" } });
    const env = cliEnv(appUrl, { token });

    const create = await runCli(["tokens", "create", "--name", "child"], { env });
    expect(create.code).toBe(1);
    expect(create.stderr).toContain("Personal API tokens cannot create API tokens.");
    const billing = await runCli(["subscription", "status"], { env });
    expect(billing.code).toBe(1);
    expect(billing.stderr).toContain("Personal API tokens cannot view or verify the subscription.");
  });

  it("is never refreshed, and a refused one leaves the saved session in place (exit 3)", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const configDir = newConfigDir();
    const env = cliEnv(appUrl, { configDir });
    const login = await runCli(["login", "--email", user.email, "--password-stdin"], {
      env,
      input: `${user.password}\n`,
    });
    expect(login.code).toBe(0);
    const file = join(configDir, "credentials.json");
    const saved = readFileSync(file, "utf8");
    const created = await user.api.call("createToken", { body: { name: "soon revoked" } });
    await user.api.call("revokeToken", { params: { id: created._id } });

    const refused = await runCli(["whoami", "--verbose"], {
      env: { ...env, STOCKBRIDGE_TOKEN: created.token },
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(REFUSED);
    expect(refused.stderr).toContain("GET /api/auth/me 401");
    expect(refused.stderr).not.toContain("/api/auth/refresh");
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, "utf8")).toBe(saved);

    // Without the token in the environment, the saved session still works.
    expect((await runCli(["whoami"], { env })).code).toBe(0);
  });

  it("logout keeps the token valid and says how to end it", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const { token } = await user.api.call("createToken", { body: { name: "kept" } });
    const env = cliEnv(appUrl, { token });

    const logout = await runCli(["logout", "--verbose"], { env });
    expect(logout.code).toBe(0);
    expect(logout.stderr).toContain("stays valid until revoked");
    expect(logout.stderr).not.toContain("/api/auth/logout");
    expect((await runCli(["whoami"], { env })).code).toBe(0);
  });
});
