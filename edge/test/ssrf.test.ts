import { describe, expect, it } from "vitest";
import { classifyAddress } from "../src/security/ip-address.ts";
import { createOutboundGuard, type FetchLike, OutboundRefusedError } from "../src/security/outbound-guard.ts";
import { createTestApp, TEST_ENCRYPTION_KEYS } from "./helpers.ts";

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
  const seen: { url: string; redirect: RequestRedirect | undefined }[] = [];
  const recording: FetchLike = async (input, init) => {
    seen.push({ url: String(input), redirect: init?.redirect });
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
    expect(seen).toEqual([{ url: "https://erp.example.com/entity", redirect: "manual" }]);
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
      env: { APP_ENV: "production", PASSWORD_ITERATIONS: "600000", ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS },
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
