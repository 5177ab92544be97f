import type { MiddlewareHandler } from "hono";
import type { AppContext, AppEnv } from "./types.ts";

/**
 * Refuses a request body larger than `maxBytes` with a 413. A declared Content-Length is checked
 * before anything is read; a chunked body is read up to the limit and handed on as a new request.
 * Unlike hono's bodyLimit, the new request is built from the URL, method and headers only: copying
 * the incoming Request copies its `signal`, and reading that signal makes Deno.serve print its
 * legacy-abort deprecation notice and abort the signal after every successful answer.
 */
export function bodyLimit(
  maxBytes: number,
  onTooLarge: (c: AppContext) => Response,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return next();
    const declared = raw.headers.get("content-length");
    if (declared !== null && !raw.headers.has("transfer-encoding")) {
      return Number.parseInt(declared, 10) > maxBytes ? onTooLarge(c) : next();
    }
    const reader = raw.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        return onTooLarge(c);
      }
      chunks.push(value);
    }
    const body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    c.req.raw = new Request(c.req.url, { method: raw.method, headers: raw.headers, body });
    return next();
  };
}
