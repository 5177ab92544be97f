import { describe, expect, inject, it } from "vitest";
import { checkoutSessionId } from "../../e2e/support/subscribe.ts";
import { type CliResult, cliEnv, runCli } from "./support/cli.ts";
import { newUser } from "./support/users.ts";

/** No colour escapes, whatever the command printed (NO_COLOR is set for every run here). */
function expectPlain(result: CliResult): void {
  expect(result.stdout + result.stderr).not.toContain("\u001b[");
}

describe("settings", () => {
  it("shows the mapping settings and changes only the flags given", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const env = { ...cliEnv(appUrl, { token: user.token }), NO_COLOR: "1" };

    const before = await runCli(["settings", "show", "--json"], { env });
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual({
      quantityMapping: { acumaticaQuantity: "Available", shopifyQuantity: "Available" },
      priceMapping: { syncPrice: false, syncMsrp: false },
    });

    const set = await runCli(["settings", "set", "--sync-price", "--acumatica-quantity", "OnHand"], { env });
    expectPlain(set);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain("Price mapping settings saved successfully");
    expect(set.stdout).toContain("Quantity mapping settings saved successfully");
    expect(set.stdout).toContain("Acumatica quantity: OnHand");

    const msrp = await runCli(["settings", "set", "--sync-msrp", "--no-sync-price", "--json"], { env });
    expect(msrp.code).toBe(0);
    expect(JSON.parse(msrp.stdout)).toEqual({
      priceMapping: { syncPrice: false, syncMsrp: true },
      quantityMapping: { acumaticaQuantity: "OnHand", shopifyQuantity: "Available" },
    });
    expect(await user.api.call("settings")).toEqual(JSON.parse(msrp.stdout));
  });

  it("refuses nothing to set (exit 2), a bad choice (exit 2) and both price fields off with the server's rule (exit 1)", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const env = { ...cliEnv(appUrl, { token: user.token }), NO_COLOR: "1" };

    const nothing = await runCli(["settings", "set"], { env });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("Nothing to set");

    const choice = await runCli(["settings", "set", "--acumatica-quantity", "Lots"], { env });
    expect(choice.code).toBe(2);
    expect(choice.stderr).toContain("Allowed choices are Available, OnHand, AvailableForShipping");

    const off = await runCli(["settings", "set", "--no-sync-price", "--no-sync-msrp", "--json"], { env });
    expect(off.code).toBe(1);
    expect(off.stdout).toBe("");
    const { error } = JSON.parse(off.stderr);
    expect(error).toMatchObject({ code: "VALIDATION_FAILED", requestId: expect.any(String) });
    expect(JSON.stringify(error)).toContain("At least one price field must be synced");
  });
});

describe("subscription", () => {
  it("lists plans, prints a checkout URL for a plan by name, and shows the subscription once paid", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newUser(appUrl);
    const env = { ...cliEnv(appUrl, { token: user.token }), NO_COLOR: "1" };

    const none = await runCli(["subscription", "status", "--json"], { env });
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout)).toEqual({ subscription: null, hasAccess: false });

    const plans = await runCli(["subscription", "plans"], { env });
    expectPlain(plans);
    expect(plans.code).toBe(0);
    expect(plans.stdout).toMatch(/^Starter\s+\$\d+\.\d\d per \w+/m);

    const checkout = await runCli(["subscription", "checkout", "starter"], { env });
    expect(checkout.code).toBe(0);
    const url = checkout.stdout.trim();
    expect(url).toMatch(/^https?:\/\/\S+$/);
    expect(checkout.stderr).toContain("Open this page to pay for Starter");

    const paid = await fetch(`${sandboxUrl}/checkout/${checkoutSessionId(url)}/pay`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ card: "tok_visa" }),
    });
    expect(paid.ok).toBe(true);
    // The edge learns of the payment through the checkout session (as the web's return page asks).
    await user.api.call("subscriptionStatus", { query: { session_id: checkoutSessionId(url) } });

    const status = await runCli(["subscription", "status"], { env });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/Subscription: Starter \(active/);
    expect(status.stdout).toContain("Access:       yes");
  });

  it("names the plans on offer when asked for one that is not (exit 1, JSON error)", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const result = await runCli(["subscription", "checkout", "Platinum", "--json"], {
      env: cliEnv(appUrl, { token: user.token }),
    });
    expect(result.code).toBe(1);
    const { error } = JSON.parse(result.stderr);
    expect(error.code).toBe("NOT_FOUND");
    expect(error.message).toMatch(/^No plan "Platinum": choose one of .*Starter/);
  });
});
