import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiClient } from "@stockbridge/shared";
import { describe, expect, it, onTestFinished } from "vitest";
import { startSandbox } from "../../sandbox/src/serve-node.ts";
import { freePort, startDeno } from "../../scripts/lib.mjs";
import { GROWTH, WEBHOOK_SECRET } from "./billing-harness.ts";

// The Stripe SDK runs on Deno with its fetch client and SubtleCrypto: proven end to end here.
describe("billing on the edge under Deno", () => {
  it("takes a checkout through payment and Stripe's signed webhook to an active subscription", async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const sandbox = await startSandbox({
      stripeWebhookUrl: `${origin}/api/webhooks/stripe`,
      stripeWebhookSecret: WEBHOOK_SECRET,
    });
    const dataDir = mkdtempSync(join(tmpdir(), "stockbridge-billing-"));
    const server = await startDeno(
      "edge",
      "edge/main.ts",
      {
        PORT: String(port),
        DATA_DIR: dataDir,
        PASSWORD_ITERATIONS: "1000",
        STRIPE_SECRET_KEY: "sk_test_deno",
        STRIPE_API_URL: sandbox.origin,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        APP_ORIGIN: origin,
      },
      `${origin}/api/health`,
    );
    onTestFinished(async () => {
      server.kill("SIGTERM");
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const anonymous = createApiClient({ baseUrl: `${origin}/api`, getToken: () => null });
    const { token } = await anonymous.call("register", {
      body: { name: "Deno Buyer", email: "buyer@example.com", password: "Passw0rd" },
    });
    const api = createApiClient({ baseUrl: `${origin}/api`, getToken: () => token });
    expect((await api.call("plans")).map((plan) => plan.stripePriceId)).toContain(GROWTH);

    const { url } = await api.call("createCheckoutSession", { body: { priceId: GROWTH } });
    const paid = await fetch(`${url}/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(paid.status).toBe(200);
    await sandbox.sandbox.systems.stripe.idle();
    const state = (await (await fetch(`${sandbox.origin}/__control/state`)).json()) as {
      stripe: { webhooksDelivered: number; webhooksFailed: number };
    };
    expect(state.stripe).toMatchObject({ webhooksFailed: 0 });
    expect(state.stripe.webhooksDelivered).toBeGreaterThan(0);

    expect(await api.call("subscriptionStatus")).toMatchObject({
      hasAccess: true,
      subscription: { planId: GROWTH, status: "active" },
    });
    expect(
      (await fetch(`${origin}/api/mapping/history`, { headers: { Authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(200);
  });
});
