import { formatMoney } from "./invoicing.ts";
import type { CheckoutSessionRecord, StripeStore } from "./records.ts";

/** Everything interpolated into the page goes through here. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f6f8fa; color: #1a1f36; }
  main { width: min(420px, calc(100vw - 32px)); background: #fff; border-radius: 12px; padding: 32px;
    box-shadow: 0 4px 24px rgba(26, 31, 54, 0.08); }
  .badge { display: inline-block; margin: 0 0 16px; padding: 2px 8px; border-radius: 4px; background: #ffde92;
    color: #5c3b00; font-size: 12px; font-weight: 600; letter-spacing: 0.02em; }
  h1 { margin: 0 0 4px; font-size: 20px; }
  .amount { margin: 0 0 16px; font-size: 32px; font-weight: 700; }
  .amount span { font-size: 15px; font-weight: 400; color: #697386; }
  ul { margin: 0 0 24px; padding-left: 20px; color: #3c4257; line-height: 1.6; }
  label { display: block; margin: 12px 0 4px; font-size: 14px; color: #3c4257; }
  input, select { box-sizing: border-box; width: 100%; padding: 10px 12px; border: 1px solid #d5dbe1; border-radius: 6px; font: inherit; }
  .actions { display: flex; gap: 12px; margin-top: 24px; }
  button { flex: 1; padding: 12px; border: 0; border-radius: 6px; font: inherit; font-weight: 600; cursor: pointer; }
  button.pay { background: #635bff; color: #fff; }
  button.cancel { background: #eef0f3; color: #3c4257; }
  .alert { margin: 16px 0 0; padding: 10px 12px; border-radius: 6px; background: #fde8e8; color: #a41c1c; }
  .note { color: #697386; font-size: 14px; }
  a { color: #635bff; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body><main>
<p class="badge">TEST MODE · Stripe sandbox</p>
${body}
</main></body>
</html>`;
}

/** The hosted payment page: plan, price, features, an email field, a test card choice, Pay and Cancel. */
export function checkoutPage(session: CheckoutSessionRecord, store: StripeStore, error?: string): string {
  const first = store.prices.get(session.lineItems[0]!.price)!;
  const product = store.products.get(first.product);
  const total = session.lineItems.reduce(
    (sum, item) => sum + (store.prices.get(item.price)?.unitAmount ?? 0) * item.quantity,
    0,
  );
  const email =
    (session.customer && store.customers.get(session.customer)?.email) || session.customerEmail || "";
  const trialDays = session.subscriptionData.trialPeriodDays ?? first.trialPeriodDays;
  const every =
    first.intervalCount === 1 ? `per ${first.interval}` : `every ${first.intervalCount} ${first.interval}s`;
  const features = (product?.features ?? []).map((feature) => `<li>${escapeHtml(feature)}</li>`).join("");
  const action = `/checkout/${encodeURIComponent(session.id)}`;
  return page(
    `Subscribe to ${product?.name ?? "plan"}`,
    `<h1>Subscribe to ${escapeHtml(product?.name ?? first.id)}</h1>
<p class="amount">${escapeHtml(formatMoney(total, first.currency))} <span>${escapeHtml(every)}</span></p>
${trialDays ? `<p class="note">${trialDays}-day free trial: nothing is charged today.</p>` : ""}
${features ? `<ul>${features}</ul>` : ""}
<form method="post" action="${action}/pay">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" value="${escapeHtml(email)}">
<label for="card">Test card</label>
<select id="card" name="card">
<option value="tok_visa">Visa •••• 4242 (succeeds)</option>
<option value="tok_mastercard">Mastercard •••• 4444 (succeeds)</option>
<option value="tok_chargeDeclined">Visa •••• 0002 (declined)</option>
</select>
${error ? `<p class="alert" role="alert">${escapeHtml(error)}</p>` : ""}
<div class="actions">
<button class="pay" type="submit">Pay</button>
${session.cancelUrl ? `<button class="cancel" type="submit" formaction="${action}/cancel" formnovalidate>Cancel</button>` : ""}
</div>
</form>`,
  );
}

/** For a complete, expired or unknown session: a plain message and, when there is one, a way back. */
export function closedPage(message: string, link?: { href: string; text: string }): string {
  return page(
    "Checkout",
    `<h1>${escapeHtml(message)}</h1>
${link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : ""}`,
  );
}
