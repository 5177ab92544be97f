import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { cliEnv, newConfigDir, runCli } from "../testing/cli.ts";
import { newUser } from "../testing/users.ts";

const NOT_SIGNED_IN = "Not signed in: run `stockbridge login`";

describe("login, whoami, logout", () => {
  it("saves the session owner-only with its API URL; whoami uses it and logout forgets it", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const configDir = newConfigDir();
    const env = cliEnv(appUrl, { configDir });

    const login = await runCli(["login", "--email", user.email, "--password-stdin"], {
      env,
      input: `${user.password}\n`,
    });
    expect(login.stderr).toBe("");
    expect(login.code).toBe(0);
    expect(login.stdout).toContain("Login successful!");
    const file = join(configDir, "credentials.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, "utf8"));
    expect(saved).toMatchObject({ apiUrl: appUrl, email: user.email });
    expect(typeof saved.token).toBe("string");
    expect(login.stdout).not.toContain(saved.token);

    const whoami = await runCli(["whoami"], { env });
    expect(whoami.code).toBe(0);
    expect(whoami.stdout).toContain(`${user.name} <${user.email}>`);
    expect(whoami.stdout).toContain("Subscription: none");

    const json = await runCli(["whoami", "--json"], { env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).user).toMatchObject({ email: user.email, subscription: null });

    const logout = await runCli(["logout"], { env });
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain("Signed out.");
    expect(existsSync(file)).toBe(false);
    // The server ended the session too: the old token no longer opens anything.
    const revoked = await runCli(["whoami"], { env: { ...env, STOCKBRIDGE_TOKEN: saved.token } });
    expect(revoked.code).toBe(3);
  });

  it("takes the password from STOCKBRIDGE_PASSWORD and reports a refused one with the server's message (exit 1)", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const env = cliEnv(appUrl);

    const refused = await runCli(["login", "--email", user.email], {
      env: { ...env, STOCKBRIDGE_PASSWORD: "Not-the-password1" },
    });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr.trim()).toBe("Invalid email or password");

    const accepted = await runCli(["login", "--email", user.email, "--json"], {
      env: { ...env, STOCKBRIDGE_PASSWORD: user.password },
    });
    expect(accepted.code).toBe(0);
    // --json: the API's data on stdout and nothing else; the token stays in the file.
    expect(JSON.parse(accepted.stdout)).toEqual({ user: expect.objectContaining({ email: user.email }) });
  });

  it("asks for what it cannot prompt for without a terminal as a usage error (exit 2)", async () => {
    const result = await runCli(["login"], { env: cliEnv(inject("appUrl")) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--email is required when stdin is not a terminal");
  });
});

describe("signed-out use", () => {
  it("exits 3 with the sign-in hint and prints nothing on stdout", async () => {
    const result = await runCli(["products", "list", "shopify"], { env: cliEnv(inject("appUrl")) });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim()).toBe(NOT_SIGNED_IN);
  });

  it("exits 3 on a token the server refuses and removes the saved session", async () => {
    const appUrl = inject("appUrl");
    const configDir = newConfigDir();
    mkdirSync(configDir, { recursive: true });
    const file = join(configDir, "credentials.json");
    const stale = { apiUrl: appUrl, token: "not-a-token", email: "gone@example.com", savedAt: "" };
    writeFileSync(file, JSON.stringify(stale), { mode: 0o600 });

    const result = await runCli(["whoami"], { env: cliEnv(appUrl, { configDir }) });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(NOT_SIGNED_IN);
    expect(existsSync(file)).toBe(false);
  });

  it("names the URL it could not reach (exit 1)", async () => {
    const result = await runCli(["whoami"], {
      env: cliEnv("http://127.0.0.1:9", { token: "any" }),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Cannot reach the Stockbridge API at http://127.0.0.1:9");
  });
});

describe("usage errors", () => {
  it("rejects an API URL that is not http(s), naming the flag or variable (exit 2)", async () => {
    const appUrl = inject("appUrl");
    const flag = await runCli(["--api", "ftp://example.com", "whoami"], { env: cliEnv(appUrl) });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("--api must be an http:// or https:// URL");

    const variable = await runCli(["whoami"], {
      env: { ...cliEnv(appUrl), STOCKBRIDGE_API_URL: "localhost:8000" },
    });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toContain("STOCKBRIDGE_API_URL must be an http:// or https:// URL");
  });

  it("names the flag and its rule for a bad value (exit 2)", async () => {
    const env = cliEnv(inject("appUrl"), { token: "unused" });
    const page = await runCli(["products", "list", "shopify", "--page", "0"], { env });
    expect(page.code).toBe(2);
    expect(page.stderr).toContain("--page must be a whole number from 1 to 1000000");

    const sort = await runCli(["products", "list", "acumatica", "--sort", "price"], { env });
    expect(sort.code).toBe(2);
    expect(sort.stderr).toContain("--sort must be one of sku, defaultPrice");
  });
});
