import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ApiClient } from "@stockbridge/shared";
import { describe, expect, inject, it } from "vitest";
import { waitForJob } from "../../../e2e/support/catalog-setup.ts";
import { cliEnv, newConfigDir, runCli } from "../../testing/cli.ts";
import { newConnectedSubscriber } from "../../testing/users.ts";

/** A connected subscriber with both catalogs pulled and nothing mapped yet. */
async function pulledSubscriber() {
  const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
  const user = await newConnectedSubscriber(appUrl, sandboxUrl);
  const [shopify, acumatica] = await Promise.all([
    user.api.call("syncShopifyProducts"),
    user.api.call("syncAcumaticaProducts"),
  ]);
  await Promise.all([waitForJob(user.api, shopify.job), waitForJob(user.api, acumatica.job)]);
  return { user, env: { ...cliEnv(appUrl, { token: user.token }), NO_COLOR: "1" } };
}

/** SKUs that name exactly one item on both sides (the sandbox shares most SKUs between them). */
async function sharedSkus(api: ApiClient, count: number): Promise<string[]> {
  const [shopify, acumatica] = await Promise.all([
    api.call("shopifyProducts", { query: { limit: "100" } }),
    api.call("acumaticaProducts", { query: { limit: "100" } }),
  ]);
  const once = (skus: string[]) => skus.filter((sku) => skus.indexOf(sku) === skus.lastIndexOf(sku));
  const erp = new Set(once(acumatica.products.map((product) => product.sku)));
  const shared = once(shopify.products.map((product) => product.sku)).filter((sku) => sku && erp.has(sku));
  if (shared.length < count) throw new Error(`The sandbox shares only ${shared.length} SKUs on a page`);
  return shared.slice(0, count);
}

describe("mappings create, edit, delete", () => {
  it("maps by SKU, points a mapping at another ERP item, and deletes it", async () => {
    const { user, env } = await pulledSubscriber();
    const [first, second] = await sharedSkus(user.api, 2);

    const created = await runCli(["mappings", "create", first ?? "", first ?? "", "--json"], { env });
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    const mapping = JSON.parse(created.stdout);
    expect(mapping).toMatchObject({ shopifyDetails: { sku: first }, acumaticaDetails: { sku: first } });

    const edited = await runCli(["mappings", "edit", mapping._id, "--acumatica-sku", second ?? ""], { env });
    expect(edited.code).toBe(0);
    expect(edited.stdout).toContain("Mapping updated successfully");
    expect(edited.stdout).toContain(`${mapping._id}: ${first} → ${second}`);

    const deleted = await runCli(["mappings", "delete", mapping._id], { env });
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toContain(`Mapping deleted successfully: ${mapping._id}`);
    expect((await user.api.call("mappingHistory")).total).toBe(0);

    const gone = await runCli(["mappings", "delete", mapping._id, "--json"], { env });
    expect(gone.code).toBe(1);
    expect(JSON.parse(gone.stderr).error.code).toBe("NOT_FOUND");
  });

  it("names a SKU that no pulled item has (exit 1) and refuses an edit without a change (exit 2)", async () => {
    const { env } = await pulledSubscriber();
    const unknown = await runCli(["mappings", "create", "NO-SUCH-SKU", "NO-SUCH-SKU"], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No (Shopify|Acumatica) item has SKU "NO-SUCH-SKU"/);

    const nothing = await runCli(["mappings", "edit", "any-id"], { env });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("Nothing to change");
  });
});

describe("mappings export and import", () => {
  it("imports a CSV reporting each row, changes nothing when run again, and exports what it made", async () => {
    const { user, env } = await pulledSubscriber();
    const [first, second] = await sharedSkus(user.api, 2);
    const file = join(newConfigDir(), "mappings.csv");
    writeFileSync(
      file,
      `shopifySku,acumaticaSku\n${first},${first}\n"${second}",${second}\nNO-SUCH-SKU,${first}\n`,
    );

    const imported = await runCli(["mappings", "import", file], { env });
    expect(imported.code).toBe(1);
    expect(imported.stdout).toMatch(new RegExp(`line 2: ${first} → ${first}: created \\(\\S+\\)`));
    expect(imported.stdout).toMatch(new RegExp(`line 3: ${second} → ${second}: created`));
    expect(imported.stdout).toContain("line 4: NO-SUCH-SKU → ");
    expect(imported.stdout).toContain('failed: No Shopify item has SKU "NO-SUCH-SKU"');
    expect(imported.stdout).toContain("3 rows: 2 created, 0 unchanged, 1 failed");
    expect(imported.stderr).toContain("1 of 3 rows failed");

    const again = await runCli(["mappings", "import", "-", "--json"], {
      env,
      input: readFileSync(file, "utf8"),
    });
    expect(again.code).toBe(1);
    const report = JSON.parse(again.stdout);
    expect(report).toMatchObject({ created: 0, unchanged: 2, failed: 1 });
    expect(report.rows.map((row: { outcome: string }) => row.outcome)).toEqual([
      "unchanged",
      "unchanged",
      "failed",
    ]);
    expect((await user.api.call("mappingHistory")).total).toBe(2);

    const exported = await runCli(["mappings", "export"], { env });
    expect(exported.code).toBe(0);
    const lines = exported.stdout.trim().split("\n");
    expect(lines[0]).toBe("shopifySku,acumaticaSku");
    expect(lines.slice(1).sort()).toEqual([`${first},${first}`, `${second},${second}`].sort());
  });

  it("refuses a file without the header (exit 2)", async () => {
    const { env } = await pulledSubscriber();
    const result = await runCli(["mappings", "import", "-"], { env, input: "SKU-1,SKU-1\n" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("The first line must be the header shopifySku,acumaticaSku.");
  });
});
