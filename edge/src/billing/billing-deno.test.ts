import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox } from "@stockbridge/sandbox";
import { createApiClient } from "@stockbridge/shared";
import Stripe from "stripe";
import { describe, expect, it, onTestFinished } from "vitest";
import { developmentWebhookSecret, freePort } from "../../../scripts/lib.mjs";
import { GROWTH, WEBHOOK_SECRET } from "../../testing/billing-harness.ts";
import { startEdgeProcess } from "../../testing/deno-harness.ts";

/** A fresh data folder, removed when the test ends. */
function dataFolder(): string {
  const dataDir = mkdtempSync(join(tmpdir(), "stockbridge-billing-"));
  onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
  return dataDir;
}

/**
 * The sandbox (signing with `webhookSecret`) and the edge under Deno with `edgeEnv`, both stopped
 * when the test ends; answers a signed-up user's client and the sandbox's webhook counters.
 */
async function startEdge(options: {
  dataDir: string;
  webhookSecret: string;
  edgeEnv: (sandboxOrigin: string) => Record<string, string>;
}) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const sandbox = await startSandbox({
    stripeWebhookUrl: `${origin}/api/webhooks/stripe`,
    stripeWebhookSecret: options.webhookSecret,
  });
  const edge = await startEdgeProcess({
    port,
    dataDir: options.dataDir,
    env: { STRIPE_SECRET_KEY: "sk_test_deno", APP_ORIGIN: origin, ...options.edgeEnv(sandbox.origin) },
  });
  onTestFinished(async () => {
    edge.stop();
    await sandbox.close();
  });

  const anonymous = createApiClient({ baseUrl: `${origin}/api`, getToken: () => null });
  const { token } = await anonymous.call("register", {
    body: { name: "Deno Buyer", email: "buyer@example.com", password: "Passw0rd" },
  });
  const api = createApiClient({ baseUrl: `${origin}/api`, getToken: () => token });
  return {
    origin,
    token,
    api,
    /** Checks out and pays Growth on the hosted page; resolves once Stripe's webhooks were answered. */
    async subscribe() {
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
      return state.stripe;
    },
  };
}

// The Stripe SDK runs on Deno with its fetch client and SubtleCrypto: proven end to end here.
describe("billing on the edge under Deno", () => {
  it("takes a checkout through payment and Stripe's signed webhook to an active subscription", async () => {
    const edge = await startEdge({
      dataDir: dataFolder(),
      webhookSecret: WEBHOOK_SECRET,
      edgeEnv: (sandboxOrigin) => ({ STRIPE_API_URL: sandboxOrigin, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }),
    });
    expect((await edge.api.call("plans")).map((plan) => plan.stripePriceId)).toContain(GROWTH);

    const webhooks = await edge.subscribe();

    expect(webhooks).toMatchObject({ webhooksFailed: 0 });
    expect(webhooks.webhooksDelivered).toBeGreaterThan(0);
    expect(await edge.api.call("subscriptionStatus")).toMatchObject({
      hasAccess: true,
      subscription: { planId: GROWTH, status: "active" },
    });
    expect(
      (
        await fetch(`${edge.origin}/api/mapping/history`, {
          headers: { Authorization: `Bearer ${edge.token}` },
        })
      ).status,
    ).toBe(200);
  });

  it("in sandbox mode verifies webhooks with a secret made for its data folder, not a public one", async () => {
    const dataDir = dataFolder();
    const secret = developmentWebhookSecret(dataDir);
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(developmentWebhookSecret(dataDir)).toBe(secret);
    expect(developmentWebhookSecret(dataFolder())).not.toBe(secret);
    // As `npm start` runs it: the sandbox gets the folder's secret, the edge only the folder.
    const edge = await startEdge({
      dataDir,
      webhookSecret: secret,
      edgeEnv: (sandboxOrigin) => ({ SANDBOX_URL: sandboxOrigin, STRIPE_WEBHOOK_SECRET: "" }),
    });

    const webhooks = await edge.subscribe();

    expect(webhooks).toMatchObject({ webhooksFailed: 0 });
    expect((await edge.api.call("subscriptionStatus")).hasAccess).toBe(true);
    // The secret every copy of the sources used to sign with is just another wrong one now.
    const payload = JSON.stringify({
      id: "evt_public",
      object: "event",
      type: "customer.created",
      created: 1,
    });
    const forged = await fetch(`${edge.origin}/api/webhooks/stripe`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "stripe-signature": await Stripe.webhooks.generateTestHeaderStringAsync({
          payload,
          secret: "whsec_sandbox_local_only",
          cryptoProvider: Stripe.createSubtleCryptoProvider(),
        }),
      },
      body: payload,
    });
    expect(forged.status).toBe(400);
  });
});
