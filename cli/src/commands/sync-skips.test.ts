import { describe, expect, inject, it } from "vitest";
import { findSyncableMapping } from "../../../e2e/support/catalog-setup.ts";
import { cliEnv, runCli } from "../../testing/cli.ts";
import { newMappedSubscriber } from "../../testing/users.ts";

const PRICE_OFF_HINT =
  "Skipped: price sync is off in Settings: stockbridge settings set --sync-price (and/or --sync-msrp)";
// The run's own reason, as its history entry records it (edge/src/sync/plan.ts SKIP.priceSettingsOff).
const PRICE_OFF_REASON =
  "Skipped 1: price sync is off in Settings (choose Price and/or MSRP on the Mapping tab)";

describe("sync explains skipped items", () => {
  it("says a price sync skipped everything because price sync is off in Settings, and how to turn it on", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newMappedSubscriber(appUrl, sandboxUrl);
    const env = { ...cliEnv(appUrl, { token: user.token }), NO_COLOR: "1" };
    const { mapping } = await findSyncableMapping(user.api, sandboxUrl);

    // New accounts start with both price fields off.
    const skipped = await runCli(["sync", "--mapping", mapping._id, "--price"], { env });
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toContain("1 skipped");
    expect(skipped.stdout).toContain(PRICE_OFF_REASON);
    expect(skipped.stdout).toContain(PRICE_OFF_HINT);

    const json = await runCli(["sync", "--mapping", mapping._id, "--price", "--json"], { env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).result.skipped).toBe(1);
    expect(json.stderr.trim().split("\n")).toEqual([PRICE_OFF_REASON, PRICE_OFF_HINT]);

    const set = await runCli(["settings", "set", "--sync-price"], { env });
    expect(set.code).toBe(0);
    const synced = await runCli(["sync", "--mapping", mapping._id, "--price"], { env });
    expect(synced.code).toBe(0);
    expect(synced.stdout).toContain("0 skipped");
    expect(synced.stdout).not.toContain("price sync is off");
    expect(synced.stdout).not.toContain("Skipped ");
  });
});
