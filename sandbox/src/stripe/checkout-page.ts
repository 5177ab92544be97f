import type { Context, Hono } from "hono";
import {
  CheckoutClosedError,
  cancelCheckout,
  closedMessage,
  completeCheckout,
  successRedirect,
} from "./checkout.ts";
import { checkoutPage, closedPage } from "./checkout-html.ts";
import type { StripeContext } from "./context.ts";
import { StripeApiError } from "./errors.ts";
import type { CheckoutSessionRecord } from "./records.ts";

/**
 * The hosted Checkout page a session's `url` points at. A browser gets HTML and 303 redirects;
 * a script may POST JSON (or send `Accept: application/json`) and gets `{ redirect }` instead.
 */
export function registerCheckoutPage(app: Hono, ctx: StripeContext): void {
  app.get("/checkout/:id", (c) => {
    const session = ctx.store.sessions.get(c.req.param("id"));
    if (!session) return c.html(closedPage("This checkout link is not valid."), 404);
    if (session.status === "complete") {
      return c.html(
        closedPage(closedMessage(session), {
          href: successRedirect(session),
          text: "Return to the merchant",
        }),
      );
    }
    if (session.status === "expired") {
      const back = session.cancelUrl
        ? { href: session.cancelUrl, text: "Return to the merchant" }
        : undefined;
      return c.html(closedPage(closedMessage(session), back), 410);
    }
    return c.html(checkoutPage(session, ctx.store));
  });

  app.post("/checkout/:id/pay", async (c) => {
    const { fields, wantsJson } = await readSubmission(c);
    const session = ctx.store.sessions.get(c.req.param("id"));
    if (!session) return unknownSession(c, wantsJson);
    try {
      const subscription = completeCheckout(ctx, session, {
        email: fields.email,
        card: fields.card || undefined,
      });
      const redirect = successRedirect(session);
      if (wantsJson) return c.json({ redirect, session: session.id, subscription: subscription.id });
      return c.redirect(redirect, 303);
    } catch (error) {
      return failure(c, { error, session, wantsJson });
    }
  });

  app.post("/checkout/:id/cancel", async (c) => {
    const { wantsJson } = await readSubmission(c);
    const session = ctx.store.sessions.get(c.req.param("id"));
    if (!session) return unknownSession(c, wantsJson);
    try {
      const redirect = cancelCheckout(session);
      if (wantsJson) return c.json({ redirect, session: session.id });
      return c.redirect(redirect, 303);
    } catch (error) {
      return failure(c, { error, session, wantsJson });
    }
  });

  function failure(
    c: Context,
    { error, session, wantsJson }: { error: unknown; session: CheckoutSessionRecord; wantsJson: boolean },
  ): Response {
    if (error instanceof CheckoutClosedError) {
      if (wantsJson) return c.json({ error: error.message }, 409);
      return c.html(closedPage(error.message), 409);
    }
    if (error instanceof StripeApiError) {
      if (wantsJson) return c.json({ error: error.message, code: error.body.code ?? null }, error.status);
      return c.html(checkoutPage(session, ctx.store, error.message), error.status);
    }
    throw error;
  }
}

function unknownSession(c: Context, wantsJson: boolean): Response {
  const message = "This checkout link is not valid.";
  return wantsJson ? c.json({ error: message }, 404) : c.html(closedPage(message), 404);
}

/** Reads a form or JSON body into plain string fields. */
async function readSubmission(c: Context): Promise<{ fields: Record<string, string>; wantsJson: boolean }> {
  const contentType = c.req.header("content-type") ?? "";
  const isJson = contentType.includes("application/json");
  const wantsJson = isJson || (c.req.header("accept") ?? "").includes("application/json");
  const text = await c.req.text();
  const fields: Record<string, string> = {};
  if (isJson) {
    let parsed: unknown = {};
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = {};
    }
    if (typeof parsed === "object" && parsed !== null) {
      for (const [key, value] of Object.entries(parsed)) if (typeof value === "string") fields[key] = value;
    }
  } else {
    for (const [key, value] of new URLSearchParams(text)) fields[key] = value;
  }
  return { fields, wantsJson };
}
