import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "../http/types.ts";
import type { Logger } from "./log.ts";
import type { Metrics } from "./metrics.ts";

/**
 * One access line per request and the request metrics. The route is the matched path template
 * (`/api/jobs/:id`), never the raw path or query: those carry ids and, for job events, a token, and
 * as metric labels they would grow without bound.
 */
export function accessLog(deps: {
  logger: Logger;
  metrics: Metrics;
  /** Monotonic milliseconds (performance.now). */
  clock?: () => number;
}): MiddlewareHandler<AppEnv> {
  const clock = deps.clock ?? (() => performance.now());
  return async (c, next) => {
    const started = clock();
    try {
      await next();
    } finally {
      const seconds = (clock() - started) / 1000;
      const route = routeOf(c.req.path, routePath(c));
      const status = c.res.status;
      const method = c.req.method;
      deps.metrics.requests.inc({ method, route, status: String(status) });
      deps.metrics.latency.observe({ method, route }, seconds);
      deps.logger.info("request", {
        requestId: c.get("requestId"),
        userId: c.get("caller")?.userId,
        method,
        route,
        status,
        durationMs: Math.round(seconds * 100_000) / 100,
      });
    }
  };
}

/** Static files and the app shell share one label; API paths nothing matched share another. */
function routeOf(path: string, template: string): string {
  const api = path === "/api" || path.startsWith("/api/");
  if (template === "" || template === "*" || template === "/*" || template === "/api/*") {
    return api ? "/api/*" : "/*";
  }
  return template;
}
