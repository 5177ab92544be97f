// `npm run sandbox`: only the simulators of Shopify, Acumatica and Stripe, on SANDBOX_PORT (8100).
import { developmentWebhookSecret, ensureDependencies, startDeno } from "./lib.mjs";

ensureDependencies();
const port = process.env.SANDBOX_PORT ?? "8100";
const smtpPort = process.env.SANDBOX_SMTP_PORT ?? "2525";
const child = await startDeno(
  "sandbox",
  "sandbox/main.ts",
  {
    SANDBOX_PORT: port,
    SANDBOX_SMTP_PORT: smtpPort,
    // The data folder's secret, which an edge in sandbox mode on the same folder verifies with.
    STRIPE_WEBHOOK_SECRET:
      process.env.STRIPE_WEBHOOK_SECRET ?? developmentWebhookSecret(process.env.DATA_DIR ?? ".data"),
  },
  `http://127.0.0.1:${port}/__control/state`,
);
console.log(
  `Sandbox ready: http://127.0.0.1:${port}  (control API: /__control/state; mail: smtp://127.0.0.1:${smtpPort}, caught at /__control/mail)`,
);
const stop = () => {
  child.kill("SIGTERM");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
