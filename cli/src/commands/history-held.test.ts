import { MESSAGES } from "@stockbridge/shared";
import { describe, expect, inject, it } from "vitest";
import { setShopifyPrice, shopifyPrice, waitForJob } from "../../../e2e/support/catalog-setup.ts";
import { cliEnv, runCli } from "../../testing/cli.ts";
import { jumpPrice, mappingOf, PRICE_JUMP_SKUS } from "../../testing/price-jump.ts";
import { newMappedSubscriber, type TestUser } from "../../testing/users.ts";

const PRICE = { price: true, quantity: false };

/** A price sync of a mapping whose Shopify price is a quarter of the ERP's: the safety limits hold it. */
async function heldRun(user: TestUser, mappingId: string): Promise<string> {
  const { job } = await user.api.call("syncMappings", {
    body: { mappingIds: [mappingId], syncOptions: PRICE },
  });
  const finished = await waitForJob(user.api, job);
  const historyId = (finished.result as { historyId?: string }).historyId;
  if (!historyId) throw new Error("The held sync recorded no run");
  expect(await user.api.call("executionHistoryEntry", { params: { id: historyId } })).toMatchObject({
    status: "held",
  });
  return historyId;
}

describe("history: a held run", () => {
  it("shows its reasons and plan, discards one without writing, and approves another that writes the plan", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newMappedSubscriber(appUrl, sandboxUrl);
    const env = { ...cliEnv(appUrl, { token: user.token }), NO_COLOR: "1" };
    await user.api.call("savePriceMapping", { body: { syncPrice: true, syncMsrp: false } });
    const mapping = await mappingOf(user.api, PRICE_JUMP_SKUS.historyHeld);
    const { erpPrice, lowered } = await jumpPrice(user.api, sandboxUrl, mapping);
    const variantId = mapping.shopifyDetails.variantId;
    const sku = mapping.shopifyDetails.sku;
    try {
      const first = await heldRun(user, mapping._id);
      const shown = await runCli(["history", "show", first], { env });
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain("Status:  held");
      expect(shown.stdout).toMatch(
        new RegExp(`! Price of ${sku} would change by [\\d.]+ % \\(limit 50 %\\)`),
      );
      const planLine = shown.stdout.split("\n").find((line) => line.startsWith(sku));
      expect(planLine).toMatch(/price/);
      expect(planLine).toContain(lowered.toFixed(2));
      expect(planLine).toContain(erpPrice.toFixed(2));
      expect(shown.stdout).toContain("Plan page 1 of 1 (1 change)");
      expect(shown.stdout).toContain(`Approve: stockbridge history approve ${first}`);

      const plan = await runCli(["history", "plan", first, "--all", "--json"], { env });
      expect(plan.code).toBe(0);
      expect(JSON.parse(plan.stdout)).toEqual({
        total: 1,
        changes: [
          expect.objectContaining({
            mappingId: mapping._id,
            field: "price",
            from: lowered,
            to: erpPrice,
            result: null,
          }),
        ],
      });

      const discarded = await runCli(["history", "discard", first], { env });
      expect(discarded.code).toBe(0);
      expect(discarded.stdout).toContain(MESSAGES.history.discarded);
      expect(await shopifyPrice(user.api, sandboxUrl, variantId)).toBe(lowered);
      const again = await runCli(["history", "discard", first, "--json"], { env });
      expect(again.code).toBe(1);
      expect(JSON.parse(again.stderr).error.code).toBe("CONFLICT");

      const second = await heldRun(user, mapping._id);
      const approved = await runCli(["history", "approve", second, "--json"], { env });
      expect(approved.stderr).toBe("");
      expect(approved.code).toBe(0);
      expect(JSON.parse(approved.stdout)).toMatchObject({
        kind: "sync",
        status: "succeeded",
        result: { historyId: second, failure: 0 },
      });
      expect(await shopifyPrice(user.api, sandboxUrl, variantId)).toBe(erpPrice);
      const entry = await runCli(["history", "show", second, "--json"], { env });
      expect(JSON.parse(entry.stdout)).toMatchObject({
        status: "completed",
        review: { decision: "approved" },
      });
      const result = await runCli(["history", "plan", second], { env });
      expect(result.stdout.split("\n").find((line) => line.startsWith(sku))).toContain("written");
    } finally {
      // The sandbox is shared: leave the variant at the ERP's price, as a sync would.
      await setShopifyPrice(user.api, sandboxUrl, { variantId, price: erpPrice });
    }
  });

  it("exits 1 with the server's reason for a run that was not held", async () => {
    const appUrl = inject("appUrl");
    const user = await newMappedSubscriber(appUrl, inject("sandboxUrl"));
    const env = cliEnv(appUrl, { token: user.token });
    const unknown = await runCli(["history", "approve", "no-such-run"], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).not.toBe("");
    const plan = await runCli(["history", "plan", "no-such-run", "--json"], { env });
    expect(plan.code).toBe(1);
    expect(JSON.parse(plan.stderr).error.code).toBe("NOT_FOUND");
  });
});
