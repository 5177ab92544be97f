import { serve } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { createSandbox, type SandboxOptions } from "./app.ts";
import { startSmtpCatcher } from "./mail/smtp-catcher.ts";

export interface RunningSandbox {
  origin: string;
  /** The mail catcher's `smtp://127.0.0.1:<port>`, for an edge's SMTP_URL. */
  smtpUrl: string;
  sandbox: ReturnType<typeof createSandbox>;
  close(): Promise<void>;
}

/**
 * Serves a sandbox on Node over real HTTP on a free loopback port: how tests and benchmarks run it
 * in-process. (`sandbox/main.ts` is the Deno entry used by `npm start` / `npm run sandbox`.)
 */
export async function startSandbox(
  options: Partial<Omit<SandboxOptions, "origin" | "remoteAddressOf">> = {},
): Promise<RunningSandbox> {
  let resolvedOrigin = "";
  // The origin is only known once the port is bound, so the server starts first and hands requests
  // to the sandbox created right after (no request can arrive before this function returns).
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const created = serve(
      { fetch: (request, env) => sandbox.app.fetch(request, env), hostname: "127.0.0.1", port: 0 },
      (info) => {
        resolvedOrigin = `http://127.0.0.1:${info.port}`;
        resolve(created);
      },
    );
  });
  const sandbox = createSandbox({
    stripeWebhookSecret: "whsec_test_sandbox",
    ...options,
    origin: resolvedOrigin,
    remoteAddressOf: (c) => getConnInfo(c).remote.address,
  });
  const smtp = await startSmtpCatcher(sandbox.mail);
  return {
    origin: resolvedOrigin,
    smtpUrl: smtp.url,
    sandbox,
    close: async () => {
      await smtp.close();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
}
