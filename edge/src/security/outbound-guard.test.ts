import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createTcpServer, type Server, type Socket } from "node:net";
import type { TLSSocket } from "node:tls";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createConnectedApp } from "../../testing/connectors-harness.ts";
import {
  createTestApp,
  failure,
  openNodeConnection,
  TEST_ENCRYPTION_KEYS,
  testPinnedFetch,
} from "../../testing/helpers.ts";
import { classifyAddress } from "./ip-address.ts";
import {
  type CheckedTarget,
  createOutboundGuard,
  OutboundRefusedError,
  type PinnedFetch,
  PRIVATE_NETWORK_FAILURE,
  type ResolveHost,
} from "./outbound-guard.ts";
import { createPinnedFetch, type OpenConnection } from "./pinned-fetch.ts";

describe("classifyAddress", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.32.0.1", "public"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["169.254.169.254", "metadata"],
    ["169.254.1.1", "link-local"],
    ["100.100.100.200", "metadata"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fd00:ec2::254", "metadata"],
    ["fd12:3456::1", "private"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:169.254.169.254", "metadata"],
    ["::ffff:a9fe:a9fe", "metadata"],
    ["::ffff:10.0.0.1", "private"],
    ["64:ff9b::a9fe:a9fe", "metadata"],
    ["2002:a9fe:a9fe::1", "metadata"],
    ["[::1]", "loopback"],
    ["2606:4700::1111", "public"],
    ["ff02::1", "reserved"],
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  // Every special IPv4 and IPv6 form: one that is not plainly public must never come back "public".
  it.each([
    ["192.0.2.10", "reserved"],
    ["198.51.100.10", "reserved"],
    ["203.0.113.10", "reserved"],
    ["192.88.99.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved"],
    ["2001::1", "reserved"],
    ["2001:2::1", "reserved"],
    ["2001:10::1", "reserved"],
    ["2001:20::1", "reserved"],
    ["2001:db8::1", "reserved"],
    ["3fff::1", "reserved"],
    ["2002:0a00:0001::1", "private"],
    ["2002:7f00:0001::1", "loopback"],
    ["2002:c0a8:0101::1", "private"],
    ["2002:0808:0808::1", "public"],
    ["64:ff9b::10.0.0.1", "private"],
    ["64:ff9b::127.0.0.1", "loopback"],
    ["64:ff9b::8.8.8.8", "public"],
    ["64:ff9b:1::10.0.0.1", "reserved"],
    ["::ffff:0:10.0.0.1", "private"],
    ["::ffff:0:127.0.0.1", "loopback"],
    ["::ffff:192.168.0.1", "private"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:0.0.0.0", "unspecified"],
    ["::127.0.0.1", "loopback"],
    ["::10.0.0.1", "private"],
    ["::169.254.169.254", "metadata"],
    ["::1:2:3:4", "reserved"],
    ["100::1", "reserved"],
    ["fec0::1", "reserved"],
    ["feff::1", "reserved"],
    ["fc00::1", "private"],
    ["fdff:ffff::1", "private"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["ff05::2", "reserved"],
    ["4000::1", "reserved"],
    ["2a00:1450:4001::200e", "public"],
    ["2001:4860:4860::8888", "public"],
  ])("the special form %s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it("is null for things that are not addresses", () => {
    expect(classifyAddress("example.com")).toBeNull();
    expect(classifyAddress("1.2.3")).toBeNull();
    expect(classifyAddress("1:2:3:4:5:6:7:8:9")).toBeNull();
  });
});

describe("createOutboundGuard", () => {
  const seen: { url: string; redirect: RequestRedirect | undefined; target: CheckedTarget }[] = [];
  const recording: PinnedFetch = async (input, init, target) => {
    seen.push({ url: String(input), redirect: init?.redirect, target });
    return new Response(null, {
      status: 302,
      headers: { Location: "http://169.254.169.254/latest/meta-data" },
    });
  };
  const dns: Record<string, string[]> = {
    "erp.example.com": ["93.184.216.34"],
    "inside.example.com": ["10.0.0.7"],
    "sneaky.example.com": ["93.184.216.34", "169.254.169.254"],
    "mapped.example.com": ["::ffff:127.0.0.1"],
  };
  const guard = (options: { allowPrivateNetwork?: boolean; requireHttps?: boolean } = {}) =>
    createOutboundGuard(
      {
        allowPrivateNetwork: options.allowPrivateNetwork ?? false,
        requireHttps: options.requireHttps ?? false,
        resolveHost: async (host) => dns[host] ?? [],
        cacheMs: 0,
      },
      recording,
    );
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error as OutboundRefusedError,
    );

  it.each([
    [
      "http://169.254.169.254/latest/meta-data",
      "169.254.169.254, a cloud metadata address, which may not be called",
    ],
    [
      "http://metadata.google.internal/computeMetadata/v1",
      "metadata.google.internal is a cloud metadata service",
    ],
    ["http://[fd00:ec2::254]/", "fd00:ec2::254, a cloud metadata address, which may not be called"],
    [
      "http://[::ffff:169.254.169.254]/",
      "::ffff:a9fe:a9fe, a cloud metadata address, which may not be called",
    ],
    ["http://0.0.0.0:8080/", "0.0.0.0, an unspecified address, which may not be called"],
    [
      "http://sneaky.example.com/",
      "sneaky.example.com resolves to 169.254.169.254, a cloud metadata address, which may not be called",
    ],
    [
      "http://inside.example.com/",
      "inside.example.com resolves to 10.0.0.7, a private network address, which may not be called",
    ],
    [
      "http://mapped.example.com/",
      "mapped.example.com resolves to ::ffff:127.0.0.1, a loopback address, which may not be called",
    ],
    ["http://127.0.0.1:8100/", "127.0.0.1, a loopback address, which may not be called"],
    ["http://localhost/", "localhost resolves to 127.0.0.1, a loopback address, which may not be called"],
    ["http://user:pw@erp.example.com/", "the address must not contain a user name or password"],
    ["ftp://erp.example.com/", "the address must start with https:// (got ftp:)"],
  ])("refuses %s", async (url, message) => {
    const error = await refusal(guard().check(url));
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect(error?.message).toBe(message);
  });

  it("allows loopback and private ranges only when configured, and link-local or metadata never", async () => {
    const open = guard({ allowPrivateNetwork: true });
    await open.check("http://127.0.0.1:8100/acumatica");
    await open.check("http://inside.example.com/");
    await open.check("http://[::1]:8100/");
    expect(await refusal(open.check("http://169.254.169.254/"))).toBeInstanceOf(OutboundRefusedError);
    expect(await refusal(open.check("http://[fe80::1]/"))).toBeInstanceOf(OutboundRefusedError);
  });

  it("requires https when told to (production)", async () => {
    expect((await refusal(guard({ requireHttps: true }).check("http://erp.example.com/")))?.message).toBe(
      "the address must use https://",
    );
    await guard({ requireHttps: true }).check("https://erp.example.com/");
  });

  it("calls only checked addresses and never follows a redirect itself", async () => {
    seen.length = 0;
    const response = await guard().fetch("https://erp.example.com/entity", { method: "GET" });
    expect(response.status).toBe(302);
    expect(seen).toEqual([
      { url: "https://erp.example.com/entity", redirect: "manual", target: { addresses: ["93.184.216.34"] } },
    ]);
    expect(await refusal(guard().fetch("http://169.254.169.254/"))).toBeInstanceOf(OutboundRefusedError);
    expect(seen).toHaveLength(1);
  });

  it("reports a host that does not resolve as unresolvable", async () => {
    expect(await refusal(guard().check("https://nowhere.example.com/"))).toMatchObject({
      kind: "unresolvable",
    });
  });
});

describe("outbound addresses in the app", () => {
  const acumatica = (instanceUri: string) => ({
    name: "ERP",
    apiVersion: "23.200.001" as const,
    instanceUri,
    endpointName: "Default",
    username: "admin",
    password: "Secret-Passw0rd",
    company: "Acme",
  });

  it.each([
    "http://169.254.169.254/",
    "http://[::ffff:169.254.169.254]/",
    "http://metadata.google.internal/",
    "http://127.0.0.1:8100/acumatica",
    "http://10.0.0.5/",
    "http://[fd00:ec2::254]/",
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
    "http://[::ffff:0:10.0.0.5]/",
  ])("refuses to save the instance URL %s outside sandbox mode", async (instanceUri) => {
    const { client, request, registerUser } = await createTestApp();
    const user = await registerUser();
    const response = await request("/api/users/acumatica", {
      token: user.token,
      body: acumatica(instanceUri),
    });
    expect(response.status).toBe(400);
    const answer = await response.json();
    expect(answer.errors[0].path).toBe("instanceUri");
    expect(answer.message).toMatch(/^Instance URL is not allowed: /);
    expect((await client(user.token).call("getConnections")).acumaticaConnection).toBeNull();
  });

  it.each([
    "https://user:pw@erp.example.com/",
    "https://admin@erp.example.com/AcumaticaERP",
    "https://user%40acme:pw@erp.example.com/",
    "https://erp.example.com/AcumaticaERP#frag",
    "https://erp.example.com#",
    "https://erp.example.com/AcumaticaERP%23x",
    "https://erp.example.com/x%40evil.example",
    "https://evil.example\\@erp.example.com/",
    "https://erp.example.com/path@evil.example",
  ])("refuses the instance URL %s: user-info and fragments are not allowed", async (instanceUri) => {
    const { client, request, registerUser } = await createTestApp({
      deps: { resolveHost: async () => ["93.184.216.34"] },
    });
    const user = await registerUser();
    const response = await request("/api/users/acumatica", {
      token: user.token,
      body: acumatica(instanceUri),
    });
    expect(response.status).toBe(400);
    const answer = await response.json();
    expect(answer.errors).toEqual([
      {
        path: "instanceUri",
        message:
          "Instance URL must not contain a user name, password or fragment (no @ or #, also not as %40 or %23)",
      },
    ]);
    expect((await client(user.token).call("getConnections")).acumaticaConnection).toBeNull();
  });

  it("accepts loopback in sandbox mode but still refuses metadata there", async () => {
    const { request, registerUser } = await createTestApp({ env: { SANDBOX_URL: "http://127.0.0.1:8100" } });
    const user = await registerUser();
    expect(
      (
        await request("/api/users/acumatica", {
          token: user.token,
          body: acumatica("http://127.0.0.1:8100/acumatica"),
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await request("/api/users/acumatica", {
          token: user.token,
          body: acumatica("http://169.254.169.254/"),
        })
      ).status,
    ).toBe(400);
  });

  it("requires https in production", async () => {
    const { request, registerUser } = await createTestApp({
      env: {
        APP_ENV: "production",
        LIBSQL_URL: ":memory:",
        PASSWORD_ITERATIONS: "600000",
        ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      },
      deps: { resolveHost: async () => ["93.184.216.34"] },
    });
    const user = await registerUser();
    const response = await request("/api/users/acumatica", {
      token: user.token,
      body: acumatica("http://erp.example.com/"),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(
      "Instance URL is not allowed: the address must use https://",
    );
    expect(
      (
        await request("/api/users/acumatica", {
          token: user.token,
          body: acumatica("https://erp.example.com/"),
        })
      ).status,
    ).toBe(200);
  });

  it("checks the address again at test time (DNS may have changed since the save)", async () => {
    const dns = new Map([["erp.example.com", ["93.184.216.34"]]]);
    const { client, registerUser } = await createTestApp({
      deps: { resolveHost: async (host) => dns.get(host) ?? [] },
    });
    const user = await registerUser();
    await client(user.token).call("saveAcumatica", { body: acumatica("https://erp.example.com/") });
    dns.set("erp.example.com", ["169.254.169.254"]);
    const error = await client(user.token)
      .call("testAcumatica")
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      status: 502,
      message:
        "Acumatica connection test failed: the instance address is not allowed: erp.example.com resolves to 169.254.169.254, a cloud metadata address, which may not be called",
    });
  });
});

// Servers on loopback that a test's requests may or may not reach; closed after each test.
const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listening<T extends Server>(server: T): Promise<{ server: T; port: number }> {
  servers.push(server);
  server.on("connection", (socket: Socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return { server, port: address.port };
}

/** An HTTP server that notes the Host header (and the TLS server name) of every request it gets. */
async function recordingServer(options: { tls?: "erp" | "other" } = {}) {
  const seen: { host: string | undefined; servername: string | null }[] = [];
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket as TLSSocket;
    seen.push({ host: request.headers.host, servername: options.tls ? String(socket.servername) : null });
    response.setHeader("Content-Type", "text/plain");
    response.end("answered by the checked address");
  };
  const tls = options.tls;
  const server = tls
    ? createHttpsServer({ key: fixture(`${tls}.key`), cert: fixture(`${tls}.pem`) }, handler)
    : createHttpServer(handler);
  return { ...(await listening(server)), seen };
}

// A test authority and two leaf certificates (erp.pinned.test + localhost, and other.test) made once
// with openssl; the authority's key was thrown away.
function fixture(name: string): string {
  return readFileSync(new URL(`../../testing/fixtures/tls/${name}`, import.meta.url), "utf8");
}

/** The error a promise rejects with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error(`expected a rejection, got ${String(outcome)}`);
  return outcome;
}

/** DNS rebinding: the first look-up answers `first`, every later one `later`. */
function rebindingResolver(first: string[], later: string[]) {
  const lookups: string[] = [];
  const resolveHost: ResolveHost = async (host) => {
    lookups.push(host);
    return lookups.length === 1 ? first : later;
  };
  return { resolveHost, lookups };
}

describe("the connection goes to the address the guard checked", () => {
  it("connects to the checked address although the name resolves elsewhere on the next look-up", async () => {
    const { port, seen } = await recordingServer();
    const dns = rebindingResolver(["127.0.0.1"], ["10.255.255.1"]);
    const guard = createOutboundGuard(
      { allowPrivateNetwork: true, requireHttps: false, resolveHost: dns.resolveHost, cacheMs: 0 },
      testPinnedFetch,
    );
    const response = await guard.fetch(`http://erp.rebind.test:${port}/entity?$top=1`);
    expect(await response.text()).toBe("answered by the checked address");
    expect(seen).toEqual([{ host: `erp.rebind.test:${port}`, servername: null }]);
    expect(dns.lookups).toEqual(["erp.rebind.test"]);
  });

  it("never connects to the private address a second answer points to", async () => {
    const { port, seen } = await recordingServer();
    const dns = rebindingResolver(["93.184.216.34"], ["127.0.0.1"]);
    const opened: string[] = [];
    // Loopback is really connected to; nothing leaves this machine, so a public address refuses.
    const open: OpenConnection = async (target) => {
      opened.push(target.address);
      if (target.address === "127.0.0.1") return openNodeConnection()(target);
      throw new Error(`connect ECONNREFUSED ${target.address}:${target.port}`);
    };
    const guard = createOutboundGuard(
      { allowPrivateNetwork: false, requireHttps: false, resolveHost: dns.resolveHost, cacheMs: 0 },
      createPinnedFetch({ fetch: (input, init) => fetch(input, init), open }),
    );
    const first = await guard.fetch(`http://erp.rebind.test:${port}/`).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(TypeError);
    expect(opened).toEqual(["93.184.216.34"]);
    // The next request looks up again, sees loopback and is refused before any connection.
    const second = await guard.fetch(`http://erp.rebind.test:${port}/`).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(OutboundRefusedError);
    expect(opened).toEqual(["93.184.216.34"]);
    expect(seen).toEqual([]);
  });

  it("speaks TLS to the checked address, with the URL's host name as SNI and in the certificate check", async () => {
    const { port, seen } = await recordingServer({ tls: "erp" });
    const guard = createOutboundGuard(
      { allowPrivateNetwork: true, requireHttps: true, resolveHost: async () => ["127.0.0.1"], cacheMs: 0 },
      createPinnedFetch({
        fetch: (input, init) => fetch(input, init),
        open: openNodeConnection({ ca: fixture("ca.pem") }),
      }),
    );
    const response = await guard.fetch(`https://erp.pinned.test:${port}/entity`, {
      method: "POST",
      body: "{}",
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("answered by the checked address");
    expect(seen).toEqual([{ host: `erp.pinned.test:${port}`, servername: "erp.pinned.test" }]);
  });

  it("refuses a certificate made out to another name", async () => {
    const { port, seen } = await recordingServer({ tls: "other" });
    const pinned = createPinnedFetch({
      fetch: (input, init) => fetch(input, init),
      open: openNodeConnection({ ca: fixture("ca.pem") }),
    });
    const error = await rejection(
      pinned(`https://erp.pinned.test:${port}/`, undefined, { addresses: ["127.0.0.1"] }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error.cause as { code?: string }).code).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
    expect(seen).toEqual([]);
  });

  it("carries a request body and a chunked, gzip answer with its cookies over the pinned socket", async () => {
    const received: { method?: string; body: string; type?: string }[] = [];
    const { port } = await listening(
      createHttpServer((request, response) => {
        let body = "";
        request.on("data", (chunk) => {
          body += chunk;
        });
        request.on("end", () => {
          received.push({ method: request.method, body, type: request.headers["content-type"] });
          response.setHeader("Set-Cookie", ["ASP.NET_SessionId=abc; path=/", ".ASPXAUTH=def; path=/"]);
          response.setHeader("Content-Encoding", "gzip");
          // Written in pieces without a length: Node sends it chunked.
          const zipped = gzipSync(
            JSON.stringify({ items: Array.from({ length: 500 }, (_, index) => index) }),
          );
          response.write(zipped.subarray(0, 10));
          response.end(zipped.subarray(10));
        });
      }),
    );
    const response = await testPinnedFetch(
      `http://erp.pinned.test:${port}/entity/auth/login`,
      { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"name":"admin"}' },
      { addresses: ["127.0.0.1"] },
    );
    expect(response.headers.get("transfer-encoding")).toBe("chunked");
    expect(response.headers.getSetCookie()).toEqual([
      "ASP.NET_SessionId=abc; path=/",
      ".ASPXAUTH=def; path=/",
    ]);
    expect((await response.json()).items).toHaveLength(500);
    expect(received).toEqual([{ method: "POST", body: '{"name":"admin"}', type: "application/json" }]);
  });

  it("stops reading and closes the socket when the caller cancels mid-body", async () => {
    const served: Socket[] = [];
    const { port } = await listening(
      createHttpServer((request, response) => {
        served.push(request.socket);
        response.writeHead(200, { "Content-Length": "1000" }).write("x".repeat(10));
      }),
    );
    const controller = new AbortController();
    const response = await testPinnedFetch(
      `http://erp.pinned.test:${port}/`,
      { signal: controller.signal },
      { addresses: ["127.0.0.1"] },
    );
    const reader = response.body?.getReader();
    expect((await reader?.read())?.value?.byteLength).toBe(10);
    controller.abort();
    await expect(reader?.read()).rejects.toMatchObject({ name: "AbortError" });
    const [socket] = served;
    if (socket && !socket.closed) await once(socket, "close");
    expect(served).toHaveLength(1);
  });

  it("hands a redirect back instead of following it", async () => {
    const { port, seen } = await recordingServer();
    const redirecting = await listening(
      createHttpServer((_request, response) => {
        response.writeHead(302, { Location: `http://erp.pinned.test:${port}/elsewhere` }).end();
      }),
    );
    const response = await testPinnedFetch(`http://erp.pinned.test:${redirecting.port}/`, undefined, {
      addresses: ["127.0.0.1"],
    });
    expect(response.status).toBe(302);
    expect(seen).toEqual([]);
  });

  it("tests an Acumatica connection saved with a host name at the address checked for it", async () => {
    const app = await createConnectedApp({ deps: { resolveHost: async () => ["127.0.0.1"] } });
    try {
      const instanceUri = `${app.origin.replace("127.0.0.1", "erp.sandbox.test")}/acumatica`;
      await app.connectAcumatica({ instanceUri });
      const tested = await app.api.call("testAcumatica");
      expect(tested).toMatchObject({ instanceUri, isVerified: true, lastTestError: null });
    } finally {
      await app.close();
    }
  });
});

describe("failures on a private network all read the same", () => {
  const acumaticaAt = async (instanceUri: string) => {
    const app = await createConnectedApp();
    try {
      await app.connectAcumatica({ instanceUri });
      const error = await failure(app.api.call("testAcumatica"));
      return error.message.replace(instanceUri, "<instance>");
    } finally {
      await app.close();
    }
  };

  it("in sandbox mode: a closed port, a reset connection and a failed TLS handshake give one message", async () => {
    const closed = await listening(createTcpServer());
    await new Promise((resolve) => closed.server.close(resolve));
    const reset = await listening(createTcpServer((socket) => socket.resetAndDestroy()));
    const plain = await recordingServer();
    const messages = [
      await acumaticaAt(`http://127.0.0.1:${closed.port}/acumatica`),
      await acumaticaAt(`http://127.0.0.1:${reset.port}/acumatica`),
      await acumaticaAt(`https://127.0.0.1:${plain.port}/acumatica`),
      await acumaticaAt(`http://localhost:${closed.port}/acumatica`),
    ];
    expect(new Set(messages)).toEqual(
      new Set([
        `Acumatica connection test failed: unreachable host: <instance> (${PRIVATE_NETWORK_FAILURE})`,
      ]),
    );
  });

  it("a connection that times out reads like one that is refused", async () => {
    const guard = createOutboundGuard(
      { allowPrivateNetwork: true, requireHttps: false, resolveHost: async () => [] },
      testPinnedFetch,
    );
    // A listener whose backlog is never accepted from stands in for a host that does not answer.
    const silent = await listening(createTcpServer({ pauseOnConnect: true }, () => {}));
    const timedOut = await rejection(
      guard.fetch(`http://127.0.0.1:${silent.port}/`, { signal: AbortSignal.timeout(50) }),
    );
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.server.close(resolve));
    const refused = await rejection(guard.fetch(`http://127.0.0.1:${silent.port}/`));
    expect([timedOut.name, timedOut.message]).toEqual(["TypeError", PRIVATE_NETWORK_FAILURE]);
    expect([refused.name, refused.message]).toEqual(["TypeError", PRIVATE_NETWORK_FAILURE]);
  });

  it("keeps a caller's own cancel as it is", async () => {
    const guard = createOutboundGuard(
      { allowPrivateNetwork: true, requireHttps: false, resolveHost: async () => [] },
      testPinnedFetch,
    );
    const silent = await listening(createTcpServer({ pauseOnConnect: true }, () => {}));
    const controller = new AbortController();
    const pending = guard.fetch(`http://127.0.0.1:${silent.port}/`, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("keeps the reason for a public address", async () => {
    const guard = createOutboundGuard(
      { allowPrivateNetwork: false, requireHttps: false, resolveHost: async () => ["93.184.216.34"] },
      async () => {
        throw new TypeError("fetch failed: connect ECONNREFUSED 93.184.216.34:443");
      },
    );
    await expect(guard.fetch("https://erp.example.com/")).rejects.toThrow(
      "fetch failed: connect ECONNREFUSED 93.184.216.34:443",
    );
  });
});
