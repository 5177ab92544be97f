import { getConnInfo } from "hono/deno";
import { createSandbox } from "./src/app.ts";
import { startSmtpCatcher } from "./src/mail/smtp-catcher.ts";

// Deno entry for `npm run sandbox` and `npm start`: the three simulators on one loopback port.
const port = Number(Deno.env.get("SANDBOX_PORT") ?? "8100");
// The mail catcher: an edge in sandbox mode sends its alert emails here (SMTP_URL). `npm start` and
// `npm run sandbox` pass 2525; left out, any free port (benchmarks start sandboxes side by side).
const smtpPort = Number(Deno.env.get("SANDBOX_SMTP_PORT") ?? "0");
const origin = `http://127.0.0.1:${port}`;
const appPort = Deno.env.get("PORT") ?? "8000";
const seed = Deno.env.get("SANDBOX_SEED");
const size = Deno.env.get("SANDBOX_SIZE");

const sandbox = createSandbox({
  origin,
  seed: seed ? Number(seed) : undefined,
  size: size ? Number(size) : undefined,
  stripeWebhookUrl:
    Deno.env.get("SANDBOX_STRIPE_WEBHOOK_URL") ?? `http://127.0.0.1:${appPort}/api/webhooks/stripe`,
  // `npm start` and `npm run sandbox` pass the data folder's secret. Without one, a secret only this
  // process knows: a public default would let anyone sign events a sandbox-mode edge accepts.
  stripeWebhookSecret:
    Deno.env.get("STRIPE_WEBHOOK_SECRET") ??
    `whsec_${[...crypto.getRandomValues(new Uint8Array(32))].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`,
  remoteAddressOf: (c) => {
    const remote = getConnInfo(c).remote;
    return remote.address;
  },
});

const smtp = await startSmtpCatcher(sandbox.mail, { port: smtpPort });
console.log(`Sandbox mail catcher on ${smtp.url} (caught mail: ${origin}/__control/mail)`);

Deno.serve(
  { hostname: "127.0.0.1", port, onListen: () => console.log(`Sandbox listening on ${origin}`) },
  sandbox.app.fetch,
);
