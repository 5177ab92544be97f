import { Hono } from "hono";
import { cors } from "hono/cors";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import { clientAddressOf } from "../auth/client-address.ts";
import type { Config } from "../config.ts";
import { accessLog } from "../observability/access-log.ts";
import type { Logger } from "../observability/log.ts";
import type { Metrics } from "../observability/metrics.ts";
import { serveWeb, type WebAssets } from "../web/serve-web.ts";
import { bodyLimit } from "./body-limit.ts";
import { errorHandler } from "./error-handler.ts";
import type { AppContext, AppEnv } from "./types.ts";

const BODY_LIMIT_BYTES = 1024 * 1024;

export interface PipelineOptions {
  config: Pick<Config, "corsOrigins" | "environment" | "stripeApiUrl">;
  newId: () => string;
  logger: Logger;
  metrics: Metrics;
}

/**
 * The app every request enters: request id, access log, security headers (CSP, HSTS in
 * production), CORS for the configured origins and the 1 MB body limit on /api. Routes are added
 * to it next, and `addFallbacks` closes it.
 */
export function createPipeline(options: PipelineOptions): Hono<AppEnv> {
  const { config, newId, logger, metrics } = options;
  const app = new Hono<AppEnv>();
  // A client's X-Request-Id is kept only when short and plain (hono also refuses any character
  // outside [A-Za-z0-9_=-]): it goes into log lines and error texts. Otherwise a new one is made.
  app.use("*", requestId({ generator: newId, limitLength: 64 }));
  app.use("*", accessLog({ logger, metrics }));
  app.use(
    "*",
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "https:"],
        connectSrc: ["'self'"],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: [
          "'self'",
          ...(config.stripeApiUrl ? [new URL(config.stripeApiUrl).origin] : []),
          "https://checkout.stripe.com",
        ],
      },
      strictTransportSecurity:
        config.environment === "production" ? "max-age=31536000; includeSubDomains" : false,
      // A page with a stricter policy of its own keeps it (the API reference, system/api-docs.ts).
      overwrite: false,
    }),
  );
  if (config.corsOrigins.length > 0) {
    app.use(
      "/api/*",
      cors({
        origin: config.corsOrigins,
        allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key"],
        exposeHeaders: ["Idempotent-Replayed"],
        maxAge: 600,
      }),
    );
  }
  app.use(
    "/api/*",
    bodyLimit(BODY_LIMIT_BYTES, (c) =>
      c.json({ message: "The request body is larger than 1 MB", code: "PAYLOAD_TOO_LARGE" }, 413),
    ),
  );
  return app;
}

/**
 * After every route: a JSON 404 for an unknown API path, then the web build (when there is one),
 * a 404 for anything else, and the one error handler that turns errors into the envelope.
 */
export function addFallbacks(app: Hono<AppEnv>, options: { logger: Logger; webAssets?: WebAssets }): void {
  app.all("/api/*", (c) =>
    c.json({ message: `No API route for ${c.req.method} ${c.req.path}`, code: "NOT_FOUND" }, 404),
  );
  if (options.webAssets) serveWeb(app, options.webAssets);

  app.notFound((c) => c.json({ message: `Nothing at ${c.req.path}`, code: "NOT_FOUND" }, 404));
  app.onError(errorHandler(options.logger));
}

/**
 * The caller's address the attempt limits key on: the socket peer the runtime reports, or behind
 * trusted proxies the X-Forwarded-For entry they wrote (auth/client-address.ts).
 */
export function clientAddressFor(
  config: Pick<Config, "trustProxy" | "trustedProxyHops">,
  remoteAddress: ((c: AppContext) => string | undefined) | undefined,
): (c: AppContext) => string {
  return (c) =>
    clientAddressOf(config, { forwardedFor: c.req.header("X-Forwarded-For"), peer: remoteAddress?.(c) });
}
