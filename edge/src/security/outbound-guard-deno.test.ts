import { readFileSync } from "node:fs";
import { connect as connectTcp } from "node:net";
import { createServer as createTlsServer, type TLSSocket } from "node:tls";
import { startSandbox } from "@stockbridge/sandbox";
import {
  ACUMATICA_MAX_SESSIONS,
  type AcumaticaConnectionInput,
  ApiError,
  createApiClient,
  SANDBOX_DEMO,
} from "@stockbridge/shared";
import { describe, expect, it, onTestFinished } from "vitest";
import { startEdgeProcess } from "../../testing/deno-harness.ts";
import { PRIVATE_NETWORK_FAILURE } from "./outbound-guard.ts";

const fixtures = new URL("../../testing/fixtures/tls/", import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, fixtures), "utf8");

/**
 * TLS in front of the sandbox's plain HTTP, noting the server name and the ALPN protocols each
 * client offered: the pinned socket path offers only http/1.1, Deno's own fetch offers h2 too.
 */
async function tlsFront(certificate: "erp" | "other", upstreamPort: number) {
  const serverNames: string[] = [];
  const offers: string[][] = [];
  const server = createTlsServer({
    key: fixture(`${certificate}.key`),
    cert: fixture(`${certificate}.pem`),
    ALPNCallback: ({ protocols }) => {
      offers.push(protocols);
      return protocols.includes("http/1.1") ? "http/1.1" : undefined;
    },
  });
  server.on("secureConnection", (socket: TLSSocket) => {
    serverNames.push(String(socket.servername));
    const upstream = connectTcp(upstreamPort, "127.0.0.1");
    socket.pipe(upstream).pipe(socket);
    socket.on("error", () => upstream.destroy());
    upstream.on("error", () => socket.destroy());
  });
  // A handshake the client gives up on (a certificate it refused) is still a name it asked for.
  server.on("tlsClientError", (_error, socket: TLSSocket) => serverNames.push(String(socket.servername)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return { port: address.port, serverNames, offers, close: () => server.close() };
}

// The real Deno path of main.ts: a host name is reached over Deno.connect to the checked address and
// Deno.startTls verified against the name (DENO_CERT adds the test authority to Deno's roots).
describe("outbound connections of the edge under Deno", () => {
  it("reaches an https instance by host name at the checked address and verifies its certificate", async () => {
    const sandbox = await startSandbox({});
    const sandboxPort = Number(new URL(sandbox.origin).port);
    const good = await tlsFront("erp", sandboxPort);
    const wrong = await tlsFront("other", sandboxPort);
    const edge = await startEdgeProcess({
      env: { SANDBOX_URL: sandbox.origin, DENO_CERT: new URL("ca.pem", fixtures).pathname },
    });
    const { origin } = edge;
    onTestFinished(async () => {
      edge.stop();
      good.close();
      wrong.close();
      await sandbox.close();
    });

    const anonymous = createApiClient({ baseUrl: `${origin}/api`, getToken: () => null });
    const { token } = await anonymous.call("register", {
      body: { name: "Deno Admin", email: "tls@example.com", password: "Passw0rd" },
    });
    const api = createApiClient({ baseUrl: `${origin}/api`, getToken: () => token });
    const connection = (instanceUri: string): AcumaticaConnectionInput => ({
      name: SANDBOX_DEMO.acumatica.name,
      apiVersion: SANDBOX_DEMO.acumatica.apiVersion,
      instanceUri,
      endpointName: SANDBOX_DEMO.acumatica.endpointName,
      username: SANDBOX_DEMO.acumatica.username,
      password: SANDBOX_DEMO.acumatica.password,
      company: SANDBOX_DEMO.acumatica.company,
      maxSessions: ACUMATICA_MAX_SESSIONS.default,
    });

    const verified = `https://localhost:${good.port}${SANDBOX_DEMO.acumatica.instancePath}`;
    await api.call("saveAcumatica", { body: connection(verified) });
    expect(await api.call("testAcumatica")).toMatchObject({ instanceUri: verified, isVerified: true });
    expect(new Set(good.serverNames)).toEqual(new Set(["localhost"]));
    expect(new Set(good.offers.map((offer) => offer.join(",")))).toEqual(new Set(["http/1.1"]));

    const mismatched = `https://localhost:${wrong.port}${SANDBOX_DEMO.acumatica.instancePath}`;
    await api.call("saveAcumatica", { body: connection(mismatched) });
    const error = await api.call("testAcumatica").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(
      `Acumatica connection test failed: unreachable host: ${mismatched} (${PRIVATE_NETWORK_FAILURE})`,
    );
    expect(wrong.serverNames.length).toBeGreaterThan(0);
    expect(new Set(wrong.serverNames)).toEqual(new Set(["localhost"]));
  });
});
