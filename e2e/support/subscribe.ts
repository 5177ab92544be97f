import type { ApiClient, Plan, Subscription } from "@stockbridge/shared";

/** The sandbox's hosted checkout page of a session url (`{sandbox}/checkout/{id}`). */
export function checkoutSessionId(url: string): string {
  const id = new URL(url).pathname.split("/").filter(Boolean).pop();
  if (!id) throw new Error(`No checkout session id in ${url}`);
  return id;
}

/** A plan the sandbox offers (Starter, Growth, Scale), by name. */
export async function findPlan(api: ApiClient, name: string): Promise<Plan> {
  const plans = await api.call("plans");
  const plan = plans.find((candidate) => candidate.name === name);
  if (!plan)
    throw new Error(`The sandbox offers no plan "${name}" (has ${plans.map((p) => p.name).join(", ")})`);
  return plan;
}

/**
 * Gives the API client's user an active subscription the way a browser would get one, minus the
 * browser: start a checkout, press "Pay" on the sandbox's hosted page by script, then let the edge
 * verify the session (GET /subscriptions/status?session_id=...). Returns the verified subscription.
 */
export async function subscribeThroughCheckout(
  api: ApiClient,
  sandboxUrl: string,
  options: { plan?: string; card?: string } = {},
): Promise<Subscription> {
  const plan = await findPlan(api, options.plan ?? "Starter");
  const { url } = await api.call("createCheckoutSession", { body: { priceId: plan.stripePriceId } });
  const sessionId = checkoutSessionId(url);
  const paid = await fetch(`${sandboxUrl}/checkout/${sessionId}/pay`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ card: options.card ?? "tok_visa" }),
  });
  if (!paid.ok) throw new Error(`Checkout payment failed: ${paid.status} ${await paid.text()}`);
  const { subscription } = await api.call("subscriptionStatus", { query: { session_id: sessionId } });
  if (!subscription || !["active", "trialing"].includes(subscription.status)) {
    throw new Error(`The checkout did not start a subscription: ${JSON.stringify(subscription)}`);
  }
  return subscription;
}
