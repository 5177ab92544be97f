import { MESSAGES } from "@stockbridge/shared";
import { describe, expect, inject, it } from "vitest";
import { checkoutSessionId } from "../../../e2e/support/subscribe.ts";
import { type CliResult, cliEnv, runCli } from "../../testing/cli.ts";
import { newConnectedSubscriber, newUser } from "../../testing/users.ts";

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
    expect(JSON.parse(before.stdout)).toMatchObject({
      quantityMapping: { acumaticaQuantity: "Available", shopifyQuantity: "Available" },
      priceMapping: { syncPrice: false, syncMsrp: false },
      safetyLimits: { maxPriceChangePercent: 50, maxZeroedPercent: 20 },
      notifications: { email: user.email, webhookUrl: null, onFailed: true, onHeld: false },
    });

    const set = await runCli(["settings", "set", "--sync-price", "--acumatica-quantity", "OnHand"], { env });
    expectPlain(set);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain("Price mapping settings saved successfully");
    expect(set.stdout).toContain("Quantity mapping settings saved successfully");
    expect(set.stdout).toContain("Acumatica quantity: OnHand");

    const msrp = await runCli(["settings", "set", "--sync-msrp", "--no-sync-price", "--json"], { env });
    expect(msrp.code).toBe(0);
    const saved = JSON.parse(msrp.stdout);
    expect(saved).toMatchObject({
      priceMapping: { syncPrice: false, syncMsrp: true },
      quantityMapping: { acumaticaQuantity: "OnHand", shopifyQuantity: "Available" },
    });
    const { priceMapping, quantityMapping } = saved;
    expect(await user.api.call("settings")).toEqual({
      priceMapping,
      quantityMapping,
      locationMapping: { locations: [] },
    });
  });

  it("shows the location mapping and replaces it with --location, by location name, with the server's rule for a bad one", async () => {
    const appUrl = inject("appUrl");
    const user = await newConnectedSubscriber(appUrl, inject("sandboxUrl"));
    const env = { ...cliEnv(appUrl, { token: user.token }), NO_COLOR: "1" };

    const before = await runCli(["settings", "show"], { env });
    expect(before.code).toBe(0);
    expect(before.stdout).toContain(
      "Location Mapping\n  The primary Shopify location, fed by every warehouse (the default)",
    );

    const set = await runCli(
      [
        "settings",
        "set",
        "--location",
        "Main Warehouse=WHOLESALE",
        "--location",
        "downtown store=RETAIL, RETURNS",
      ],
      { env },
    );
    expectPlain(set);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain(MESSAGES.settings.locationSaved);
    expect(set.stdout).toContain("  Main Warehouse ← WHOLESALE\n  Downtown Store ← RETAIL, RETURNS");
    expect((await user.api.call("settings")).locationMapping).toEqual({
      locations: [
        { shopifyLocationId: "gid://shopify/Location/70001", warehouseIds: ["WHOLESALE"] },
        { shopifyLocationId: "gid://shopify/Location/70002", warehouseIds: ["RETAIL", "RETURNS"] },
      ],
    });

    const twice = await runCli(
      ["settings", "set", "--location", "Main Warehouse=WHOLESALE", "--location", "Downtown Store=WHOLESALE"],
      { env },
    );
    expect(twice.code).not.toBe(0);
    expect(twice.stderr).toContain(
      "A warehouse may feed only one location: WHOLESALE feeds two (choose one location for it)",
    );
    const malformed = await runCli(["settings", "set", "--location", "WHOLESALE"], { env });
    expect(malformed.code).not.toBe(0);
    expect(malformed.stderr).toContain('--location must be "<location>=<warehouse>,<warehouse>..."');
    const shown = await runCli(["settings", "show", "--json"], { env });
    expect(JSON.parse(shown.stdout).locationMapping.locations).toHaveLength(2);
  });

  it("sets the safety limits (0 turns one off) and shows the server's rule for one out of bounds", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const env = { ...cliEnv(appUrl, { token: user.token }), NO_COLOR: "1" };

    const set = await runCli(["settings", "set", "--max-price-change", "30", "--max-zeroed", "0"], { env });
    expect(set.code).toBe(0);
    expect(set.stdout).toContain(MESSAGES.settings.safetySaved);
    expect(set.stdout).toContain("Maximum price change:        30 %");
    expect(set.stdout).toContain("Maximum quantities set to 0: off");
    expect(await user.api.call("safetyLimits")).toEqual({ maxPriceChangePercent: 30, maxZeroedPercent: 0 });

    const shown = await runCli(["settings", "show", "--json"], { env });
    expect(JSON.parse(shown.stdout).safetyLimits).toEqual({ maxPriceChangePercent: 30, maxZeroedPercent: 0 });

    const tooHigh = await runCli(["settings", "set", "--max-price-change", "1001", "--json"], { env });
    expect(tooHigh.code).toBe(1);
    expect(tooHigh.stdout).toBe("");
    const { error } = JSON.parse(tooHigh.stderr);
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(JSON.stringify(error)).toContain("maxPriceChangePercent");
    expect(await user.api.call("safetyLimits")).toEqual({ maxPriceChangePercent: 30, maxZeroedPercent: 0 });

    const word = await runCli(["settings", "set", "--max-zeroed", "half"], { env });
    expect(word.code).toBe(2);
    expect(word.stderr).toContain("--max-zeroed must be a number");
  });

  it("sets where alerts go and which kinds do; an empty --email turns email off", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const env = { ...cliEnv(appUrl, { token: user.token }), NO_COLOR: "1" };

    const set = await runCli(
      ["settings", "set", "--email", "ops@example.com", "--on-held", "--no-on-missed", "--on-partial"],
      { env },
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toContain(MESSAGES.notifications.settingsSaved);
    expect(set.stdout).toContain("Email:   ops@example.com");
    expect(set.stdout).toContain("Alert on: failed on, partial on, missed off, held on");
    expect(await user.api.call("notificationSettings")).toMatchObject({
      email: "ops@example.com",
      webhookUrl: null,
      onFailed: true,
      onPartial: true,
      onMissed: false,
      onHeld: true,
    });

    const off = await runCli(["settings", "set", "--email", "", "--no-on-failed", "--json"], { env });
    expect(off.code).toBe(0);
    expect(JSON.parse(off.stdout).notifications).toMatchObject({
      email: null,
      onFailed: false,
      onHeld: true,
    });
    const shown = await runCli(["settings", "show"], { env });
    expect(shown.stdout).toContain("Email:   off");

    const badUrl = await runCli(["settings", "set", "--webhook-url", "ftp://example.com/hook"], { env });
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toContain("webhookUrl must be an http:// or https:// URL");
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
