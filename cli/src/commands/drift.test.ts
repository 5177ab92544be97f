import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DRIFT_CSV_COLUMNS } from "@stockbridge/shared";
import { describe, expect, inject, it, onTestFinished } from "vitest";
import {
  pullCatalogs,
  setShopifyPrice,
  shopifyPrice,
  waitForJob,
} from "../../../e2e/support/catalog-setup.ts";
import { cliEnv, runCli } from "../../testing/cli.ts";
import { jumpPrice, mappingOf, PRICE_JUMP_SKUS } from "../../testing/price-jump.ts";
import { newConnectedSubscriber, newMappedSubscriber } from "../../testing/users.ts";
import { parseCsv } from "../output/csv.ts";

describe("drift", () => {
  it("shows what a full dry run found, exports it as CSV and fixes it with one sync", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    // One mapping only: the sandbox's prices all differ from the ERP's, and `drift fix` writes every
    // drifted price to the store the other test files share.
    const user = await newConnectedSubscriber(appUrl, sandboxUrl);
    await pullCatalogs(user.api);
    const env = { ...cliEnv(appUrl, { token: user.token }), NO_COLOR: "1" };
    const sku = PRICE_JUMP_SKUS.drift;
    expect((await runCli(["mappings", "create", sku, sku], { env })).code).toBe(0);

    const before = await runCli(["drift", "show"], { env });
    expect(before.code).toBe(0);
    expect(before.stdout).toContain("Not checked yet");

    await user.api.call("savePriceMapping", { body: { syncPrice: true, syncMsrp: false } });
    const mapping = await mappingOf(user.api, sku);
    const { erpPrice, lowered } = await jumpPrice(user.api, sandboxUrl, mapping);
    const variantId = mapping.shopifyDetails.variantId;
    try {
      const { job } = await user.api.call("syncMappings", {
        body: { syncOptions: { price: true, quantity: false }, dryRun: true },
      });
      await waitForJob(user.api, job);

      const shown = await runCli(["drift", "show"], { env });
      expect(shown.code).toBe(0);
      expect(shown.stdout).toMatch(/^Checked .* \(a dry run\): 1 mapping compared, 1 differ$/m);
      expect(shown.stdout).toContain("Price: 1  Compare-at price: 0  Quantity: 0");
      const row = shown.stdout.split("\n").find((line) => line.startsWith(`${sku} `));
      expect(row).toMatch(/ price /);
      expect(row).toContain(lowered.toFixed(2));
      expect(row).toContain(erpPrice.toFixed(2));
      const json = await runCli(["drift", "show", "--json"], { env });
      const drift = JSON.parse(json.stdout);
      expect(drift).toMatchObject({
        source: "dry-run",
        mappings: 1,
        drifted: 1,
        byField: { price: 1, compareAtPrice: 0, quantity: 0 },
        items: [
          expect.objectContaining({
            mappingId: mapping._id,
            field: "price",
            shopify: lowered,
            erp: erpPrice,
          }),
        ],
      });

      const stdout = await runCli(["drift", "export"], { env });
      expect(stdout.code).toBe(0);
      const records = parseCsv(stdout.stdout).map((record) => record.fields);
      expect(records[0]).toEqual([...DRIFT_CSV_COLUMNS]);
      expect(records).toHaveLength(2);
      expect(records).toContainEqual([
        mapping._id,
        sku,
        mapping.acumaticaDetails.sku,
        "price",
        "",
        lowered.toFixed(2),
        erpPrice.toFixed(2),
      ]);
      const dir = mkdtempSync(join(tmpdir(), "stockbridge-drift-"));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const file = join(dir, "drift.csv");
      const written = await runCli(["drift", "export", file, "--json"], { env });
      expect(written.code).toBe(0);
      expect(JSON.parse(written.stdout)).toEqual({ file, rows: records.length - 1 });
      expect(readFileSync(file, "utf8")).toBe(stdout.stdout);
      const refused = await runCli(["drift", "export", "--json"], { env });
      expect(refused.code).toBe(2);

      // A 75 % price change would be held: the limit is turned off through the CLI first.
      expect((await runCli(["settings", "set", "--max-price-change", "0"], { env })).code).toBe(0);
      const fixed = await runCli(["drift", "fix", "--json"], { env });
      expect(fixed.stderr).toBe("");
      expect(fixed.code).toBe(0);
      expect(JSON.parse(fixed.stdout)).toMatchObject({
        kind: "sync",
        status: "succeeded",
        result: { failure: 0 },
      });
      expect(await shopifyPrice(user.api, sandboxUrl, variantId)).toBe(erpPrice);
      const after = JSON.parse((await runCli(["drift", "show", "--json"], { env })).stdout);
      expect(after).toMatchObject({ drifted: 0, items: [] });
    } finally {
      // The sandbox is shared: leave the variant at the ERP's price, as a sync would.
      await setShopifyPrice(user.api, sandboxUrl, { variantId, price: erpPrice });
    }
  });

  it("exits 1 with the server's reason when nothing differs", async () => {
    const appUrl = inject("appUrl");
    const user = await newMappedSubscriber(appUrl, inject("sandboxUrl"));
    const fix = await runCli(["drift", "fix", "--json"], { env: cliEnv(appUrl, { token: user.token }) });
    expect(fix.code).toBe(1);
    expect(fix.stdout).toBe("");
    expect(JSON.parse(fix.stderr).error.code).toBe("CONFLICT");
  });
});
