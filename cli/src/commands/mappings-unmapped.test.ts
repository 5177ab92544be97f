import { describe, expect, inject, it } from "vitest";
import { pullCatalogs } from "../../../e2e/support/catalog-setup.ts";
import { cliEnv, runCli } from "../../testing/cli.ts";
import { newConnectedSubscriber } from "../../testing/users.ts";

describe("mappings unmapped", () => {
  it("shows one page of each list with its total, and --all pages through both lists", async () => {
    const appUrl = inject("appUrl");
    const user = await newConnectedSubscriber(appUrl, inject("sandboxUrl"));
    await pullCatalogs(user.api);
    const env = cliEnv(appUrl, { token: user.token });

    const second = await runCli(["mappings", "unmapped", "--page", "2", "--limit", "5", "--json"], { env });
    expect(second.stderr).toBe("");
    const page = JSON.parse(second.stdout);
    expect(page).toMatchObject({ shopifyOffset: 5, acumaticaOffset: 5, limit: 5 });
    expect(page.shopify).toHaveLength(5);
    expect(page.acumatica).toHaveLength(5);
    // More than one request's worth on each side, so --all has to page.
    expect(page.shopifyTotal).toBeGreaterThan(100);
    expect(page.acumaticaTotal).toBeGreaterThan(100);

    const all = await runCli(["mappings", "unmapped", "--all", "--json"], { env });
    expect(all.code).toBe(0);
    const everything = JSON.parse(all.stdout);
    expect(everything.shopify).toHaveLength(page.shopifyTotal);
    expect(everything.acumatica).toHaveLength(page.acumaticaTotal);
    expect(new Set(everything.shopify.map((row: { _id: string }) => row._id)).size).toBe(page.shopifyTotal);
    expect(everything.shopify.slice(5, 10)).toEqual(page.shopify);

    const people = await runCli(["mappings", "unmapped", "--limit", "3"], { env });
    expect(people.code).toBe(0);
    const pages = Math.ceil(page.shopifyTotal / 3);
    expect(people.stdout).toContain(
      `Shopify variants without a mapping: ${page.shopifyTotal.toLocaleString("en-US")} (page 1 of ${pages})`,
    );
    expect(people.stdout).toMatch(/Acumatica items without a mapping: \d+ \(page 1 of \d+\)/);
  });

  it("refuses --all with --page, naming both flags", async () => {
    const appUrl = inject("appUrl");
    const result = await runCli(["mappings", "unmapped", "--all", "--page", "2"], {
      env: cliEnv(appUrl, { token: "sbk_unused" }),
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("--all");
    expect(result.stderr).toContain("--page");
  });
});
