import { MESSAGES } from "@stockbridge/shared";
import { describe, expect, inject, it } from "vitest";
import { cliEnv, runCli } from "../../testing/cli.ts";
import { holdAcumatica, newConnectedSubscriber, newMappedSubscriber, newUser } from "../../testing/users.ts";

describe("subscriber-only commands", () => {
  it("exit 1 with the server's subscription message for a user without a plan", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const result = await runCli(["products", "pull", "shopify"], {
      env: cliEnv(appUrl, { token: user.token }),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim()).toBe(MESSAGES.access.subscriptionRequired);
  });
});

describe("connections", () => {
  it("shows both cards without secrets and tests the Shopify one", async () => {
    const appUrl = inject("appUrl");
    const user = await newConnectedSubscriber(appUrl, inject("sandboxUrl"));
    const env = cliEnv(appUrl, { token: user.token });

    const cards = await runCli(["connections"], { env });
    expect(cards.code).toBe(0);
    expect(cards.stdout).toContain("Shopify: Sandbox store");
    expect(cards.stdout).toContain("Acumatica: Sandbox ERP");
    expect(cards.stdout).toContain("Access token: set");
    expect(cards.stdout).not.toContain("shpat_");
    expect(cards.stdout).not.toContain("Sandbox-Passw0rd");

    const tested = await runCli(["connections", "test", "shopify"], { env });
    expect(tested.code).toBe(0);
    expect(tested.stdout).toContain(MESSAGES.connections.shopifyTestOk);
    expect(tested.stdout).toMatch(/Status: +verified/);
  });
});

describe("products", () => {
  it("pulls both catalogs with --json (the finished job) and lists them with a search", async () => {
    const appUrl = inject("appUrl");
    const user = await newConnectedSubscriber(appUrl, inject("sandboxUrl"));
    const env = cliEnv(appUrl, { token: user.token });

    const [shopify, acumatica] = await Promise.all([
      runCli(["products", "pull", "shopify", "--json"], { env }),
      runCli(["products", "pull", "acumatica", "--json"], { env }),
    ]);
    for (const [pull, kind] of [
      [shopify, "shopify-pull"],
      [acumatica, "acumatica-pull"],
    ] as const) {
      expect(pull.stderr).toBe("");
      expect(pull.code).toBe(0);
      const job = JSON.parse(pull.stdout);
      expect(job).toMatchObject({ kind, status: "succeeded", message: MESSAGES.products.synchronized });
      expect(job.result.total).toBeGreaterThan(0);
    }

    const { products } = await user.api.call("shopifyProducts", { query: { limit: "1" } });
    const sku = products[0]?.sku ?? "";
    expect(sku).not.toBe("");
    const listed = await runCli(["products", "list", "shopify", "--search", sku], { env });
    expect(listed.code).toBe(0);
    const [header, ...rows] = listed.stdout.split("\n");
    expect(header).toMatch(
      /^SKU +Title +Price +Compare At Price +Available +On Hand +Type +Other Locations$/,
    );
    expect(rows[0]).toContain(sku);
    expect(listed.stdout).toMatch(/Page 1 of 1 \(\d+ products?\)/);

    // A variant stocked at a second location lists it after the first location's columns.
    const { products: listedFirst } = await user.api.call("shopifyProducts", { query: { limit: "50" } });
    const twice = listedFirst.find((product) => product.inventoryLocations.length === 2)!;
    const other = twice.inventoryLocations[1]!;
    const located = await runCli(["products", "list", "shopify", "--search", twice.sku], { env });
    expect(located.stdout).toContain(`${other.name} ${other.available}/${other.onHandInventory}`);

    const erp = await runCli(["products", "list", "acumatica", "--search", sku, "--json"], { env });
    expect(erp.code).toBe(0);
    const page = JSON.parse(erp.stdout);
    expect(page.products.map((product: { sku: string }) => product.sku)).toContain(sku);
  });

  it("starts a pull with --no-wait and follows it with jobs wait", async () => {
    const appUrl = inject("appUrl");
    const user = await newConnectedSubscriber(appUrl, inject("sandboxUrl"));
    const env = cliEnv(appUrl, { token: user.token });

    const started = await runCli(["products", "pull", "acumatica", "--no-wait", "--json"], { env });
    expect(started.code).toBe(0);
    const job = JSON.parse(started.stdout);
    expect(job.kind).toBe("acumatica-pull");

    const waited = await runCli(["jobs", "wait", job._id], { env });
    expect(waited.code).toBe(0);
    expect(waited.stdout).toContain(MESSAGES.products.synchronized);
    expect(waited.stdout).toMatch(/\d+ products: \d+ added/);
  });
  it("follows the pull already running when the server answers 409", async () => {
    const appUrl = inject("appUrl");
    const user = await newConnectedSubscriber(appUrl, inject("sandboxUrl"));
    const env = cliEnv(appUrl, { token: user.token });
    const hold = await holdAcumatica(user);
    const { job } = await user.api.call("syncAcumaticaProducts");

    let stderr = "";
    const run = await runCli(["products", "pull", "acumatica", "--json"], {
      env,
      onStderr(text) {
        stderr += text;
        if (stderr.includes("Following the running job")) hold.release();
      },
    });

    expect(run.stderr).toContain(`Following the running job ${job._id}.`);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ _id: job._id, kind: "acumatica-pull", status: "failed" });
  });
});

describe("mappings", () => {
  it("auto-maps identical SKUs and reports the duplicates it skipped", async () => {
    const appUrl = inject("appUrl");
    const user = await newMappedSubscriber(appUrl, inject("sandboxUrl"));
    const env = cliEnv(appUrl, { token: user.token });

    // Everything is mapped already by the set-up; a second run reports that, and the duplicates.
    const auto = await runCli(["mappings", "auto"], { env });
    expect(auto.code).toBe(0);
    expect(auto.stdout).toContain(MESSAGES.mapping.autoMapped);
    expect(auto.stdout).toMatch(/Mappings created: +0/);
    expect(auto.stdout).toMatch(/Already mapped: +[1-9]/);
    expect(auto.stdout).toContain("Duplicate in Shopify:");

    const listed = await runCli(["mappings", "list", "--limit", "5", "--json"], { env });
    expect(listed.code).toBe(0);
    const page = JSON.parse(listed.stdout);
    expect(page.mappings).toHaveLength(5);
    expect(page.mappings[0].mappingType).toBe("exact-sku");
    expect(page.total).toBeGreaterThan(5);

    // --all reads page after page (5 a request here) until every mapping is listed, each once.
    const all = await runCli(["mappings", "list", "--all", "--limit", "5", "--json"], { env });
    expect(all.code).toBe(0);
    const every = JSON.parse(all.stdout) as { mappings: { _id: string }[]; total: number };
    expect(every.total).toBe(page.total);
    expect(new Set(every.mappings.map((mapping) => mapping._id)).size).toBe(page.total);
  });
});
