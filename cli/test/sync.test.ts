import { afterEach, describe, expect, inject, it } from "vitest";
import { findSyncableMapping, setErpQuantity } from "../../e2e/support/catalog-setup.ts";
import { cliEnv, runCli } from "./support/cli.ts";
import { newMappedSubscriber } from "./support/users.ts";

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

    const { histories } = await user.api.call("executionHistory");
    const failedRun = histories.find((entry) => entry.failureCount === 1);
    expect(failedRun).toBeDefined();
    const shown = await runCli(["history", "show", failedRun?._id ?? ""], { env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/Failure: 1/);
    expect(shown.stdout).toContain("Failed Mappings");
    expect(shown.stdout).toContain(REFUSAL);

    const listed = await runCli(["history", "list"], { env });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(failedRun?._id);
    expect(listed.stdout).toContain("Page 1 of 1 (2 runs)");
  });

  it("plans with --dry-run --json and writes nothing", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newMappedSubscriber(appUrl, sandboxUrl);
    const env = cliEnv(appUrl, { token: user.token });
    const { mapping, from, to } = await findSyncableMapping(user.api, sandboxUrl);

    const run = await runCli(["sync", "--mapping", mapping._id, "--quantity", "--dry-run", "--json"], {
      env,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ dryRun: true, counts: { planned: 1, failed: 0 } });
    expect(report.runs[0].results[0].changes).toContainEqual({ field: "quantity", from, to });
    const { total } = await user.api.call("executionHistory");
    expect(total).toBe(0);
  });

  it("needs --all or --mapping (exit 2)", async () => {
    const result = await runCli(["sync"], { env: cliEnv(inject("appUrl"), { token: "unused" }) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Choose what to sync: --all or --mapping <id...>.");
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
