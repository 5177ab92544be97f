// `npm start`: the product on http://127.0.0.1:${PORT:-8000} with the sandbox behind it (unless
// SANDBOX=off). Installs dependencies and builds the web app and the CLI when needed.
import {
  developmentWebhookSecret,
  ensureCliBuild,
  ensureDependencies,
  ensureWebBuild,
  startDeno,
} from "./lib.mjs";

ensureDependencies();
ensureWebBuild();
ensureCliBuild();

const port = process.env.PORT ?? "8000";
const sandboxPort = process.env.SANDBOX_PORT ?? "8100";
const sandboxSmtpPort = process.env.SANDBOX_SMTP_PORT ?? "2525";
const useSandbox = (process.env.SANDBOX ?? "on") !== "off";
const children = [];
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

try {
  const env = { PORT: port };
  if (useSandbox) {
    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    const webhookSecret =
      process.env.STRIPE_WEBHOOK_SECRET ?? developmentWebhookSecret(process.env.DATA_DIR ?? ".data");
    children.push(
      await startDeno(
        "sandbox",
        "sandbox/main.ts",
        {
          SANDBOX_PORT: sandboxPort,
          SANDBOX_SMTP_PORT: sandboxSmtpPort,
          STRIPE_WEBHOOK_SECRET: webhookSecret,
        },
        `${sandboxUrl}/__control/state`,
      ),
    );
    Object.assign(env, {
      SANDBOX_URL: sandboxUrl,
      STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY ?? "sk_test_sandbox",
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      // Alert emails go to the sandbox's mail catcher (shown at /__control/mail) unless SMTP_URL is set.
      SMTP_URL: process.env.SMTP_URL ?? `smtp://127.0.0.1:${sandboxSmtpPort}`,
    });
  }
  const edge = await startDeno("edge", "edge/main.ts", env, `http://127.0.0.1:${port}/api/health`);
  children.push(edge);
  console.log(
    `\nStockbridge is ready: http://127.0.0.1:${port}${useSandbox ? `  (sandbox: http://127.0.0.1:${sandboxPort})` : ""}\n`,
  );
  edge.once("exit", (code) => {
    console.error(`The edge stopped (exit ${code}).`);
    stop();
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  for (const child of children) child.kill("SIGTERM");
  process.exit(1);
}
