import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { User } from "@stockbridge/shared";

/**
 * A stand-in for the edge's auth endpoints over real HTTP, until the edge's `createApp` can be
 * started in-process here. It answers the contract's shapes and records the calls it received.
 */
export interface FakeEdge {
  baseUrl: string;
  calls: string[];
  /** Tokens the server accepts; anything else is answered 401. */
  validTokens: Set<string>;
  close(): Promise<void>;
}

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    _id: "u1",
    name: "Ada Lovelace",
    email: "ada@example.com",
    profileImage: null,
    subscription: null,
    acumaticaConnection: null,
    shopifyConnection: null,
    ...overrides,
  };
}

export async function startFakeEdge(user: User = makeUser()): Promise<FakeEdge> {
  const calls: string[] = [];
  const validTokens = new Set<string>();
  let issued = 0;

  function send(response: ServerResponse, status: number, body: unknown): void {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  }

  function bearer(request: IncomingMessage): string | null {
    const header = request.headers.authorization ?? "";
    return header.startsWith("Bearer ") ? header.slice(7) : null;
  }

  async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
    let text = "";
    for await (const chunk of request) text += String(chunk);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  }

  function issue(): string {
    issued += 1;
    const token = `token-${issued}`;
    validTokens.add(token);
    return token;
  }

  const server = createServer((request, response) => {
    void (async () => {
      const path = `${request.method} ${request.url}`;
      calls.push(path);
      const body = await readBody(request);
      if (path === "POST /api/auth/login") {
        if (body.password !== "Secret1")
          return send(response, 401, { message: "Invalid email or password", code: "UNAUTHORIZED" });
        return send(response, 200, { data: { user, token: issue() } });
      }
      if (path === "POST /api/auth/refresh") {
        const token = typeof body.token === "string" ? body.token : "";
        if (!validTokens.has(token))
          return send(response, 401, { message: "Token refresh failed", code: "UNAUTHORIZED" });
        validTokens.delete(token);
        return send(response, 200, { data: { user, token: issue() } });
      }
      const token = bearer(request);
      if (!token || !validTokens.has(token))
        return send(response, 401, { message: "Unauthorized", code: "UNAUTHORIZED" });
      if (path === "POST /api/auth/logout") {
        validTokens.delete(token);
        return send(response, 200, { data: { ok: true } });
      }
      if (path === "GET /api/auth/me") return send(response, 200, { data: { user } });
      return send(response, 404, { message: "Not found", code: "NOT_FOUND" });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    calls,
    validTokens,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
