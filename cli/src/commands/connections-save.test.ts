import { ACUMATICA_API_VERSIONS, SANDBOX_DEMO, SHOPIFY_API_VERSIONS } from "@stockbridge/shared";
import { describe, expect, inject, it } from "vitest";
import { cliEnv, runCli } from "../../testing/cli.ts";
import { newUser } from "../../testing/users.ts";

const { shopify, acumatica } = SANDBOX_DEMO;

describe("connections save", () => {
  it("saves Shopify with the token from stdin, never echoes it, and the saved connection tests fine", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const env = { ...cliEnv(appUrl, { token: user.token }), NO_COLOR: "1" };
    const version = SHOPIFY_API_VERSIONS.find((choice) => choice === shopify.apiVersion) ?? "";

    const saved = await runCli(
      [
        "connections",
        "save",
        "shopify",
        "--name",
        shopify.name,
        "--store",
        shopify.storeName,
        "--api-version",
        version,
        "--access-token-stdin",
      ],
      { env, input: `${shopify.accessToken}\n` },
    );
    expect(saved.stderr).toBe("");
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain("Shopify connection settings updated successfully");
    expect(saved.stdout).not.toContain(shopify.accessToken);

    const tested = await runCli(["connections", "test", "shopify", "--json"], { env });
    expect(tested.code).toBe(0);
    expect(JSON.parse(tested.stdout)).toMatchObject({ storeName: shopify.storeName, accessTokenSet: true });
    expect(tested.stdout).not.toContain(shopify.accessToken);
  });

  it("saves Acumatica with the password from the environment; a later save of one field keeps the rest", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newUser(appUrl);
    const env = { ...cliEnv(appUrl, { token: user.token }), NO_COLOR: "1" };
    const version = ACUMATICA_API_VERSIONS.find((choice) => choice === acumatica.apiVersion) ?? "";

    const saved = await runCli(
      [
        "connections",
        "save",
        "acumatica",
        "--name",
        acumatica.name,
        "--api-version",
        version,
        "--instance-url",
        `${sandboxUrl}${acumatica.instancePath}`,
        "--endpoint",
        acumatica.endpointName,
        "--username",
        acumatica.username,
        "--company",
        acumatica.company,
        "--json",
      ],
      { env: { ...env, STOCKBRIDGE_ACUMATICA_PASSWORD: acumatica.password } },
    );
    expect(saved.code).toBe(0);
    expect(JSON.parse(saved.stdout)).toMatchObject({ name: acumatica.name, passwordSet: true });

    const renamed = await runCli(["connections", "save", "acumatica", "--name", "Main ERP"], { env });
    expect(renamed.code).toBe(0);
    const tested = await runCli(["connections", "test", "acumatica", "--json"], { env });
    expect(tested.code).toBe(0);
    expect(JSON.parse(tested.stdout)).toMatchObject({
      name: "Main ERP",
      company: acumatica.company,
      passwordSet: true,
      isVerified: true,
    });
  });

  it("takes no secret as a flag, and asks for the API version of a new connection (exit 2)", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const env = cliEnv(appUrl, { token: user.token });

    const flag = await runCli(["connections", "save", "shopify", "--access-token", "shpat_x"], { env });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("unknown option '--access-token'");

    const version = await runCli(["connections", "save", "shopify", "--name", "Store", "--json"], { env });
    expect(version.code).toBe(2);
    expect(JSON.parse(version.stderr).error).toMatchObject({
      code: "USAGE",
      message: expect.stringContaining("--api-version is required for a new connection"),
    });
  });

  it("reports the server's rule for a bad field (exit 1) with each field named", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const version = SHOPIFY_API_VERSIONS[0];
    const result = await runCli(["connections", "save", "shopify", "--api-version", version], {
      env: cliEnv(appUrl, { token: user.token }),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("name: Name is required");
    expect(result.stderr).toContain("storeName: Store name is required");
  });
});
