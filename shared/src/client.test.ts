import { describe, expect, it } from "vitest";
import { ApiError, buildPath, createApiClient } from "./client.ts";

function fakeServer(handler: (request: Request) => Response | Promise<Response>) {
  const calls: Request[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    calls.push(request);
    return handler(request);
  };
  return { calls, fetch: fetchImpl as typeof fetch };
}

describe("the typed API client", () => {
  it("sends the Bearer token and reads data from the envelope", async () => {
    const server = fakeServer(() => Response.json({ data: { user: { name: "Ann" } } }));
    const client = createApiClient({ baseUrl: "http://x/api", getToken: () => "tok", fetch: server.fetch });
    const result = await client.call("me");
    expect(result.user.name).toBe("Ann");
    expect(server.calls[0]?.headers.get("authorization")).toBe("Bearer tok");
    expect(server.calls[0]?.url).toBe("http://x/api/auth/me");
  });

  it("reads execution history at the top level", async () => {
    const server = fakeServer(() => Response.json({ histories: [], total: 0, page: 1, totalPages: 0 }));
    const client = createApiClient({ baseUrl: "http://x/api", getToken: () => "t", fetch: server.fetch });
    expect(await client.call("executionHistory", { query: { page: "1", limit: "10" } })).toEqual({
      histories: [],
      total: 0,
      page: 1,
      totalPages: 0,
    });
  });

  it("prefers the server's message and falls back to the catalogue default", async () => {
    const withMessage = fakeServer(() =>
      Response.json({ message: "Invalid email or password", code: "UNAUTHORIZED" }, { status: 401 }),
    );
    const client = createApiClient({
      baseUrl: "http://x/api",
      getToken: () => null,
      fetch: withMessage.fetch,
    });
    await expect(client.call("login", { body: { email: "a@b.co", password: "x" } })).rejects.toThrow(
      "Invalid email or password",
    );

    const bare = fakeServer(() => new Response("oops", { status: 502 }));
    const plain = createApiClient({ baseUrl: "http://x/api", getToken: () => null, fetch: bare.fetch });
    await expect(plain.call("login", { body: { email: "a@b.co", password: "x" } })).rejects.toThrow(
      "Login failed",
    );
  });

  it("calls the 401 hook when a call with a token is refused", async () => {
    let signedOut = 0;
    const server = fakeServer(() => Response.json({ message: "expired" }, { status: 401 }));
    const client = createApiClient({
      baseUrl: "http://x/api",
      getToken: () => "old",
      fetch: server.fetch,
      onUnauthorized: () => (signedOut += 1),
    });
    await expect(client.call("me")).rejects.toBeInstanceOf(ApiError);
    expect(signedOut).toBe(1);
  });

  it("carries the running job's id from a 409 so the caller can follow that job", async () => {
    const server = fakeServer(() =>
      Response.json(
        { message: "A sync is already running; wait for it to finish.", code: "CONFLICT", jobId: "job-1" },
        { status: 409 },
      ),
    );
    const client = createApiClient({ baseUrl: "http://x/api", getToken: () => "t", fetch: server.fetch });
    const error = await client
      .call("syncMappings", { body: { syncOptions: { price: true, quantity: false } } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 409, code: "CONFLICT", jobId: "job-1" });
    expect(server.calls[0]?.url).toBe("http://x/api/mapping/sync");
  });

  it("gives up after the timeout with the endpoint's default message", async () => {
    const server = fakeServer(
      (request) =>
        new Promise<Response>((_, reject) =>
          request.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
        ),
    );
    const client = createApiClient({
      baseUrl: "http://x/api",
      getToken: () => "t",
      fetch: server.fetch,
      timeoutMs: 20,
    });
    const error = await client.call("plans").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("TIMEOUT");
    expect((error as ApiError).message).toBe("Failed to fetch subscription plans");
  });

  it("fills path parameters and leaves empty query values out", () => {
    expect(buildPath("/mapping/:id/sync", { id: "a b" })).toBe("/mapping/a%20b/sync");
    expect(buildPath("/shopify/products", {}, { page: 1, search: "", sortBy: "sku" })).toBe(
      "/shopify/products?page=1&sortBy=sku",
    );
  });
});
