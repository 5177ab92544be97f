import { MESSAGES } from "@stockbridge/shared";
import { afterEach, describe, expect, inject, it } from "vitest";
import { findSyncableMapping, setErpQuantity, waitForJob } from "../../../e2e/support/catalog-setup.ts";
import { cliEnv, runCli } from "../../testing/cli.ts";
import { holdAcumatica, newMappedSubscriber, type TestUser } from "../../testing/users.ts";

/** Shopify refuses a total quantity above 1,000,000,000: an ERP quantity above it fails that one item. */
const TOO_MANY_PER_WAREHOUSE = 400_000_000;
const REFUSAL = "The total quantity can't be higher than 1,000,000,000.";
const QUANTITY = { price: false, quantity: true };

// The sandbox is shared by every test: an item made to fail gets an ordinary quantity back.
const restore: string[] = [];
afterEach(async () => {
  for (const sku of restore.splice(0)) await setErpQuantity(inject("sandboxUrl"), sku, 10);
});

/** A quantity sync of a good and a bad mapping through the API: one run with one failed item. */
async function runWithOneFailure(user: TestUser, sandboxUrl: string) {
  const good = await findSyncableMapping(user.api, sandboxUrl);
  const bad = await findSyncableMapping(user.api, sandboxUrl, { exclude: [good.mapping._id] });
  const badSku = bad.mapping.acumaticaDetails.sku;
  restore.push(badSku);
  await setErpQuantity(sandboxUrl, badSku, TOO_MANY_PER_WAREHOUSE);
  const { job } = await user.api.call("syncMappings", {
    body: { mappingIds: [good.mapping._id, bad.mapping._id], syncOptions: QUANTITY },
  });
  await waitForJob(user.api, job);
  const [run] = (await user.api.call("executionHistory")).histories;
  expect(run).toMatchObject({ status: "partial", successCount: 1, failureCount: 1 });
  return { run: run!, bad, badSku };
}

describe("history retry", () => {
  it("syncs the run's failed item again: exit 1 while it still fails, 0 once it goes through", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newMappedSubscriber(appUrl, sandboxUrl);
    const env = cliEnv(appUrl, { token: user.token });
    const { run, bad, badSku } = await runWithOneFailure(user, sandboxUrl);

    const again = await runCli(["history", "retry", run._id], { env });
    expect(again.code).toBe(1);
    expect(again.stdout).toContain(`✖ ${bad.mapping.shopifyDetails.sku} → ${badSku}: ${REFUSAL}`);
    expect(again.stdout).toContain("Synced 1 mapping: 0 succeeded, 0 unchanged, 0 skipped, 1 failed.");
    expect(again.stderr.trim()).toBe("1 of 1 mapping failed; see Execution History");

    await setErpQuantity(sandboxUrl, badSku, 12);
    const fixed = await runCli(["history", "retry", run._id, "--json"], { env });
    expect(fixed.stderr).toBe("");
    expect(fixed.code).toBe(0);
    const job = JSON.parse(fixed.stdout);
    expect(job).toMatchObject({
      kind: "sync",
      status: "succeeded",
      result: { total: 1, success: 1, failure: 0 },
    });
    const retried = await user.api.call("executionHistoryEntry", { params: { id: job.result.historyId } });
    expect(retried).toMatchObject({ status: "completed", retryOf: run._id, syncOptions: QUANTITY });

    const shown = await runCli(["history", "show", retried._id], { env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`Retry of: ${run._id}`);
  });

  it("exits 1 with the server's reason when the run has nothing to retry", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newMappedSubscriber(appUrl, sandboxUrl);
    const env = cliEnv(appUrl, { token: user.token });
    const { mapping } = await findSyncableMapping(user.api, sandboxUrl);
    const { job } = await user.api.call("syncMappings", {
      body: { mappingIds: [mapping._id], syncOptions: QUANTITY },
    });
    await waitForJob(user.api, job);
    const [run] = (await user.api.call("executionHistory")).histories;

    const refused = await runCli(["history", "retry", run!._id, "--json"], { env });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(JSON.parse(refused.stderr).error).toMatchObject({
      message: MESSAGES.history.nothingToRetry,
      code: "VALIDATION_FAILED",
    });

    const unknown = await runCli(["history", "retry", "no-such-run"], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Execution history entry not found");
  });

  it("exits 1 naming the running sync instead of following it, and starts nothing", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newMappedSubscriber(appUrl, sandboxUrl);
    const env = cliEnv(appUrl, { token: user.token });
    const { run } = await runWithOneFailure(user, sandboxUrl);
    const hold = await holdAcumatica(user);
    const { job } = await user.api.call("syncMappings", { body: { syncOptions: QUANTITY } });
    try {
      const busy = await runCli(["history", "retry", run._id], { env });
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(
        `A sync is already running; wait for it to finish. Follow it with: stockbridge jobs wait ${job._id}`,
      );
    } finally {
      hold.release();
    }
    await waitForJob(user.api, job).catch(() => undefined);
    // The first run and the held sync: the retry never started one.
    expect((await user.api.call("executionHistory")).total).toBe(2);
  });
});
