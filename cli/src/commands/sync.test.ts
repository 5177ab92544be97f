import { afterEach, describe, expect, inject, it } from "vitest";
import {
  findSyncableMapping,
  priceJumpMapping,
  setErpQuantity,
  setShopifyPrice,
  shopifyPrice,
} from "../../../e2e/support/catalog-setup.ts";
import { cliEnv, runCli } from "../../testing/cli.ts";
import { holdAcumatica, newMappedSubscriber } from "../../testing/users.ts";

/** Shopify refuses a total quantity above 1,000,000,000: an ERP quantity above it fails that one item. */
const TOO_MANY_PER_WAREHOUSE = 400_000_000;
const REFUSAL = "The total quantity can't be higher than 1,000,000,000.";

// The sandbox is shared by every test: an item made to fail gets an ordinary quantity back.
const restore: string[] = [];
afterEach(async () => {
  for (const sku of restore.splice(0)) await setErpQuantity(inject("sandboxUrl"), sku, 10);
});

describe("sync", () => {
  it("exits 1 and prints the failing item's error; history show lists it", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newMappedSubscriber(appUrl, sandboxUrl);
    const env = cliEnv(appUrl, { token: user.token });
    const good = await findSyncableMapping(user.api, sandboxUrl);
    const bad = await findSyncableMapping(user.api, sandboxUrl, { exclude: [good.mapping._id] });
    const badSku = bad.mapping.acumaticaDetails.sku;
    restore.push(badSku);
    await setErpQuantity(sandboxUrl, badSku, TOO_MANY_PER_WAREHOUSE);

    const run = await runCli(["sync", "--mapping", good.mapping._id, bad.mapping._id, "--quantity"], { env });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`✖ ${bad.mapping.shopifyDetails.sku} → ${badSku}: ${REFUSAL}`);
    expect(run.stdout).toContain("Synced 2 mappings: 1 succeeded, 0 unchanged, 0 skipped, 1 failed.");
    expect(run.stderr.trim()).toBe("1 of 2 mappings failed; see Execution History");

    // One job, one execution-history run for both mappings.
    const { histories, total } = await user.api.call("executionHistory");
    expect(total).toBe(1);
    const failedRun = histories.find((entry) => entry.failureCount === 1);
    expect(failedRun).toMatchObject({ successCount: 1, failureCount: 1 });
    expect(run.stdout).toContain(`Execution history: stockbridge history show ${failedRun?._id}`);
    const shown = await runCli(["history", "show", failedRun?._id ?? ""], { env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/Failure: 1/);
    expect(shown.stdout).toContain("Failed Mappings");
    expect(shown.stdout).toContain(REFUSAL);

    const listed = await runCli(["history", "list"], { env });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(failedRun?._id);
    expect(listed.stdout).toContain("Page 1 of 1 (1 run)");
  });

  it("jobs wait on a sync with a failed item exits 1 and names it, as sync does", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newMappedSubscriber(appUrl, sandboxUrl);
    const env = cliEnv(appUrl, { token: user.token });
    const bad = await findSyncableMapping(user.api, sandboxUrl);
    const badSku = bad.mapping.acumaticaDetails.sku;
    restore.push(badSku);
    await setErpQuantity(sandboxUrl, badSku, TOO_MANY_PER_WAREHOUSE);
    const { job } = await user.api.call("syncMappings", {
      body: { mappingIds: [bad.mapping._id], syncOptions: { price: false, quantity: true } },
    });

    const waited = await runCli(["jobs", "wait", job._id], { env });
    expect(waited.code).toBe(1);
    expect(waited.stdout).toContain(`✖ ${bad.mapping.shopifyDetails.sku} → ${badSku}: ${REFUSAL}`);
    expect(waited.stderr.trim()).toBe("1 of 1 mapping failed; see Execution History");
  });

  it("plans every mapping with --all --dry-run --json (the finished job) and writes nothing", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newMappedSubscriber(appUrl, sandboxUrl);
    const env = cliEnv(appUrl, { token: user.token });
    const { mapping, from, to } = await findSyncableMapping(user.api, sandboxUrl);
    const { total: mappings } = await user.api.call("mappingHistory");

    const run = await runCli(["sync", "--all", "--quantity", "--dry-run", "--json"], { env });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const job = JSON.parse(run.stdout);
    expect(job).toMatchObject({
      kind: "sync",
      status: "succeeded",
      result: { dryRun: true, historyId: null, total: mappings, failure: 0, truncated: false },
    });
    expect(job.result.planned).toBeGreaterThanOrEqual(1);
    const planned = job.result.changes.find(
      (change: { mappingId: string }) => change.mappingId === mapping._id,
    );
    expect(planned.changes).toContainEqual({ field: "quantity", from, to });
    const { total } = await user.api.call("executionHistory");
    expect(total).toBe(0);
  });

  it("shows a dry run's quantity changes per mapped location, named", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newMappedSubscriber(appUrl, sandboxUrl);
    const env = cliEnv(appUrl, { token: user.token });
    await user.api.call("saveLocationMapping", {
      body: {
        locations: [
          { shopifyLocationId: "gid://shopify/Location/70001", warehouseIds: ["WHOLESALE"] },
          { shopifyLocationId: "gid://shopify/Location/70002", warehouseIds: ["RETAIL", "RETURNS"] },
        ],
      },
    });

    const run = await runCli(["sync", "--all", "--quantity", "--dry-run"], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/quantity at Main Warehouse \d+ → \d+/);
    expect(run.stdout).toMatch(/quantity at Downtown Store \d+ → \d+/);
    // An item stocked at the primary location only says why the other one is left alone.
    expect(run.stdout).toContain("(Not stocked at Downtown Store)");
  });

  it("follows the sync already running instead of starting another, and exits 1 when it fails", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newMappedSubscriber(appUrl, sandboxUrl);
    const env = cliEnv(appUrl, { token: user.token });
    const hold = await holdAcumatica(user);
    const { job } = await user.api.call("syncMappings", {
      body: { syncOptions: { price: false, quantity: true } },
    });

    let stderr = "";
    const run = await runCli(["sync", "--all", "--json"], {
      env,
      onStderr(text) {
        stderr += text;
        // The CLI got the 409 and follows the running job: now let that job end.
        if (stderr.includes("Following the running job")) hold.release();
      },
    });

    expect(run.stderr).toContain(
      `A sync is already running; wait for it to finish. Following the running job ${job._id}.`,
    );
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      _id: job._id,
      kind: "sync",
      status: "failed",
      message: expect.stringMatching(/^Acumatica/),
    });
  });

  it("exits 1 when the safety limits hold the run, saying why and that nothing was written", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newMappedSubscriber(appUrl, sandboxUrl);
    const env = cliEnv(appUrl, { token: user.token });
    await user.api.call("savePriceMapping", { body: { syncPrice: true, syncMsrp: false } });
    const { mapping, erpPrice, lowered } = await priceJumpMapping(user.api, sandboxUrl);
    const variantId = mapping.shopifyDetails.variantId;
    try {
      const run = await runCli(["sync", "--mapping", mapping._id, "--price"], { env });

      expect(run.code).toBe(1);
      const reason = run.stdout.split("\n").find((line) => line.startsWith("! Price of "));
      expect(reason).toMatch(
        new RegExp(`^! Price of ${mapping.shopifyDetails.sku} would change by [\\d.]+ % \\(limit 50 %\\)$`),
      );
      expect(run.stdout).toContain(
        "Held for review: 1 mapping would change; nothing was written. Approve or discard it in Execution History.",
      );
      expect(run.stderr.trim()).toMatch(
        /^Held for review: Price of .* Nothing was written; approve or discard it in Execution History\.$/,
      );
      expect(await shopifyPrice(user.api, sandboxUrl, variantId)).toBe(lowered);
      const { histories } = await user.api.call("executionHistory");
      expect(histories[0]).toMatchObject({ status: "held" });
    } finally {
      // The sandbox is shared: leave the variant at the ERP's price, as a sync would.
      await setShopifyPrice(user.api, sandboxUrl, { variantId, price: erpPrice });
    }
  });

  it("needs --all or --mapping (exit 2)", async () => {
    const result = await runCli(["sync"], { env: cliEnv(inject("appUrl"), { token: "unused" }) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Choose what to sync: --all or --mapping <id...>.");
  });

  it("says when --all read only what changed since the last one, and reads every mapping with --reconcile", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newMappedSubscriber(appUrl, sandboxUrl);
    const env = cliEnv(appUrl, { token: user.token });
    const { total: mappings } = await user.api.call("mappingHistory");
    const sync = (...flags: string[]) => runCli(["sync", "--all", "--quantity", ...flags, "--json"], { env });

    const first = await sync();
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).result).toMatchObject({ total: mappings });
    expect(JSON.parse(first.stdout).result.changesSince).toBeUndefined();

    const second = await runCli(["sync", "--all", "--quantity"], { env });
    expect(second.code).toBe(0);
    // Other tests move the shared sandbox's stock meanwhile: some mappings may have changed.
    expect(second.stdout).toMatch(
      new RegExp(
        `^Read only what changed since .+: [\\d,]+ of ${mappings} mappings \\(--reconcile reads every one\\)\\.$`,
        "m",
      ),
    );

    const entry = /stockbridge history show (\S+)/.exec(second.stdout)?.[1] ?? "";
    const shown = await runCli(["history", "show", entry], { env });
    expect(shown.stdout).toMatch(
      new RegExp(`^  Read: +only what changed since .+ \\([\\d,]+ of ${mappings} mappings\\)$`, "m"),
    );

    const reconciled = await sync("--reconcile");
    expect(reconciled.code).toBe(0);
    expect(JSON.parse(reconciled.stdout).result).toMatchObject({ total: mappings });
    expect(JSON.parse(reconciled.stdout).result.changesSince).toBeUndefined();
  });

  it("takes --reconcile only with --all (exit 2)", async () => {
    const result = await runCli(["sync", "--mapping", "m1", "--reconcile"], {
      env: cliEnv(inject("appUrl"), { token: "unused" }),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "--reconcile goes with --all: a sync of chosen mappings always reads them.",
    );
  });
});

describe("schedules", () => {
  it("lists schedules and turns one off and on through the status endpoint", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newMappedSubscriber(appUrl, sandboxUrl);
    const env = cliEnv(appUrl, { token: user.token });
    const schedule = await user.api.call("createSchedule", {
      body: {
        name: "Nightly stock",
        schedule: { type: "daily", time: "02:30" },
        timezone: "UTC",
        isFullSync: true,
        syncOptions: { price: false, quantity: true },
      },
    });

    const off = await runCli(["schedules", "disable", schedule._id], { env });
    expect(off.code).toBe(0);
    expect(off.stdout).toContain("Schedule deactivated successfully");

    const listed = await runCli(["schedules", "list"], { env });
    expect(listed.code).toBe(0);
    const row = listed.stdout.split("\n").find((line) => line.startsWith(schedule._id)) ?? "";
    expect(row).toContain("Nightly stock");
    expect(row).toContain("Daily at 02:30");
    expect(row).toMatch(/Never +Not scheduled +inactive +Quantity$/);

    const on = await runCli(["schedules", "enable", schedule._id, "--json"], { env });
    expect(on.code).toBe(0);
    expect(JSON.parse(on.stdout)).toMatchObject({ _id: schedule._id, status: "active" });
  });
});
