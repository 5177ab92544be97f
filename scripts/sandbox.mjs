// `npm run sandbox`: only the simulators of Shopify, Acumatica and Stripe, on SANDBOX_PORT (8100).
import { ensureDependencies, startDeno } from "./lib.mjs";

ensureDependencies();
const port = process.env.SANDBOX_PORT ?? "8100";
const child = await startDeno(
  "sandbox",
  "sandbox/main.ts",
  { SANDBOX_PORT: port },
  `http://127.0.0.1:${port}/__control/state`,
);
console.log(`Sandbox ready: http://127.0.0.1:${port}  (control API: /__control/state)`);
const stop = () => {
  child.kill("SIGTERM");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
