import { describe, expect, inject, it } from "vitest";
import { findSyncableMapping, waitForJob } from "../../../e2e/support/catalog-setup.ts";
import { cliEnv, runCli } from "../../testing/cli.ts";
import { newMappedSubscriber, newUser } from "../../testing/users.ts";

describe("status", () => {
  it("prints the dashboard's figures: the last run with its outcome, the next run, failures, drift, alerts and counts", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newMappedSubscriber(appUrl, sandboxUrl);
    const env = { ...cliEnv(appUrl, { token: user.token }), NO_COLOR: "1", TZ: "UTC" };
    const { mapping } = await findSyncableMapping(user.api, sandboxUrl);
    const { job } = await user.api.call("syncMappings", {
      body: { mappingIds: [mapping._id], syncOptions: { price: false, quantity: true } },
    });
    const { result } = await waitForJob(user.api, job);
    const historyId = (result as { historyId?: string }).historyId;
    await user.api.call("createSchedule", {
      body: {
        name: "Nightly stock",
        schedule: { type: "daily", time: "02:30" },
        timezone: "UTC",
        isFullSync: true,
        syncOptions: { price: false, quantity: true },
      },
    });

    const shown = await runCli(["status"], { env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(
      new RegExp(
        `^Last run: {2}Manual sync, completed, .* \\(1 succeeded, 0 failed, 0 skipped\\) — stockbridge history show ${historyId}$`,
        "m",
      ),
    );
    expect(shown.stdout).toMatch(/^Next run: {2}Nightly stock, \w{3} \d+, \d{4} 02:30$/m);
    expect(shown.stdout).toContain("Failures:  last 24 h none; last 7 days none");
    expect(shown.stdout).toContain("Drift:     not checked yet");
    expect(shown.stdout).toContain("Alerts:    none unread");
    expect(shown.stdout).toMatch(
      /^Catalog: {3}Shopify [\d,]+ products \([\d,]+ variants\), Acumatica [\d,]+ items$/m,
    );
    expect(shown.stdout).toMatch(/^Mappings: {2}[\d,]+ mapped/m);

    const json = await runCli(["dashboard", "--json"], { env });
    expect(json.code).toBe(0);
    const dashboard = JSON.parse(json.stdout);
    expect(dashboard).toMatchObject({
      lastRun: { _id: historyId, status: "completed", successCount: 1 },
      nextRun: { scheduleName: "Nightly stock" },
      failures: { last24Hours: { runs: 0, items: 0 } },
      unreadAlerts: 0,
      timezone: "UTC",
    });
    expect(dashboard.days).toHaveLength(30);
  });

  it("exits 1 with the server's reason for an account without a subscription", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const refused = await runCli(["status", "--json"], { env: cliEnv(appUrl, { token: user.token }) });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(JSON.parse(refused.stderr).error.message).toBe(
      "A subscription is required to access this service.",
    );
  });
});
