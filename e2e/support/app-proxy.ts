import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface AppProxy {
  /** The proxy's origin: a separate origin, so its service worker and storage are its own. */
  url: string;
  /** From now on `/sw.js` answers with a changed body, as after a deploy. */
  deployNewServiceWorker(): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-encoding",
]);

/**
 * A pass-through HTTP proxy in front of the product whose only difference is a service worker
 * script that can be "redeployed". Playwright cannot route the worker's own script fetch, and the
 * built `web/dist` is shared with other test runs, so this is how a test sees a new version.
 */
export async function startAppProxy(appUrl: string): Promise<AppProxy> {
  let version = 0;
  const server = createServer((request, response) => {
    void forward(appUrl, request, response, version).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deployNewServiceWorker() {
      version += 1;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function forward(appUrl: string, request: IncomingMessage, response: ServerResponse, version: number) {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string" && name !== "host" && !HOP_BY_HOP.has(name)) headers.set(name, value);
  }
  const method = request.method ?? "GET";
  const path = new URL(request.url ?? "/", appUrl).pathname;
  const redeployed = path === "/sw.js" && version > 0;
  // The product's ETag names the file it has, not the one this proxy made of it: a redeployed
  // worker is always fetched whole, and answered without that tag.
  if (redeployed) headers.delete("if-none-match");
  const upstream = await fetch(`${appUrl}${request.url ?? "/"}`, {
    method,
    headers,
    body: method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks),
    redirect: "manual",
  });
  let body = Buffer.from(await upstream.arrayBuffer());
  if (redeployed && upstream.ok) {
    body = Buffer.concat([body, Buffer.from(`\n// redeployed ${version}\n`)]);
  }
  const outHeaders: Record<string, string> = {};
  upstream.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && !(redeployed && name === "etag")) outHeaders[name] = value;
  });
  outHeaders["content-length"] = String(body.length);
  response.writeHead(upstream.status, outHeaders);
  response.end(body);
}
