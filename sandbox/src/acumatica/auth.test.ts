import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { AcumaticaClient, acumaticaPerTest, DEMO } from "../../testing/acumatica-harness.ts";

const { start } = acumaticaPerTest();

describe("POST /entity/auth/login", () => {
  it("answers 204 with an empty body and sets the session cookies, each twice", async () => {
    const erp = await start();
    const client = new AcumaticaClient(erp.instanceUrl);

    const response = await client.login();

    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    const names = response.headers.getSetCookie().map((cookie) => cookie.split("=")[0]);
    for (const name of [".ASPXAUTH", "ASP.NET_SessionId", "CompanyID", "Locale", "UserBranch", "requestid"]) {
      expect(names.filter((candidate) => candidate === name)).toHaveLength(2);
    }
    expect(client.cookies.get("CompanyID")).toBe(DEMO.tenant);
    expect(client.cookies.get("ASP.NET_SessionId")).toMatch(/^[a-z0-5]{24}$/);
    expect(response.headers.getSetCookie().find((cookie) => cookie.startsWith(".ASPXAUTH"))).not.toMatch(
      /secure/i,
    );
  });

  it("accepts the older `company` field, a form post, and a missing tenant (the default one)", async () => {
    const erp = await start();
    const viaCompany = await new AcumaticaClient(erp.instanceUrl).login({
      name: DEMO.name,
      password: DEMO.password,
      company: DEMO.tenant,
    });
    const viaForm = await new AcumaticaClient(erp.instanceUrl).request("POST", "/entity/auth/login", {
      body: new URLSearchParams({ name: DEMO.name, password: DEMO.password, tenant: DEMO.tenant }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    const defaultTenant = new AcumaticaClient(erp.instanceUrl);
    const viaDefault = await defaultTenant.login({ name: DEMO.name, password: DEMO.password });

    expect([viaCompany.status, viaForm.status, viaDefault.status]).toEqual([204, 204, 204]);
    expect(defaultTenant.cookies.get("CompanyID")).toBe(DEMO.tenant);
  });

  it("answers a wrong password with HTTP 500 and a PXException body, not 401", async () => {
    const erp = await start();

    const response = await new AcumaticaClient(erp.instanceUrl).login({ ...DEMO, password: "wrong" });

    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      message: "An error has occurred.",
      exceptionMessage: "Error: Invalid credentials. Please try again.",
      exceptionType: "PX.Data.PXException",
    });
    expect(await erp.state()).toMatchObject({ loginsOpen: 0, loginFailures: 1 });
  });

  it("answers an unknown tenant with PXUndefinedCompanyException", async () => {
    const erp = await start();

    const response = await new AcumaticaClient(erp.instanceUrl).login({ ...DEMO, tenant: "NoSuchCompany" });

    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      exceptionMessage: "A proper company ID cannot be determined for the request.",
      exceptionType: "PX.Data.PXUndefinedCompanyException",
    });
  });

  it("refuses a login beyond the licence seats with 429 and an 'API Login Limit' page", async () => {
    const erp = await start();
    await erp.configure({ seats: 2 });
    await new AcumaticaClient(erp.instanceUrl).login();
    await new AcumaticaClient(erp.instanceUrl).login();

    const refused = await new AcumaticaClient(erp.instanceUrl).login();

    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toContain("text/html");
    expect(await refused.text()).toContain("API Login Limit");
    expect(await erp.state()).toMatchObject({ loginsOpen: 2, logins: 2, declined: 1, loginLimitHits: 1 });
  });

  it("keeps the most sessions ever open at once, after they are logged out", async () => {
    const erp = await start();
    const clients = [0, 1, 2].map(() => new AcumaticaClient(erp.instanceUrl));
    for (const client of clients) await client.login();
    for (const client of clients) await client.logout();
    await clients[0]!.login();

    expect(await erp.state()).toMatchObject({ loginsOpen: 1, loginsOpenPeak: 3 });
  });

  it("lets the same client sign in again without taking a second seat", async () => {
    const erp = await start();
    await erp.configure({ seats: 1 });
    const client = new AcumaticaClient(erp.instanceUrl);
    await client.login();

    const again = await client.login();

    expect(again.status).toBe(204);
    expect(await erp.state()).toMatchObject({ loginsOpen: 1 });
  });
});

describe("POST /entity/auth/logout", () => {
  it("answers 204, expires the credential cookies and frees the seat", async () => {
    const erp = await start();
    await erp.configure({ seats: 1 });
    const first = new AcumaticaClient(erp.instanceUrl);
    await first.login();

    const logout = await first.logout();
    const afterwards = await first.request("GET", "/entity/Default/23.200.001/StockItem?$top=1");
    const second = await new AcumaticaClient(erp.instanceUrl).login();

    expect(logout.status).toBe(204);
    expect(logout.headers.getSetCookie()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\.ASPXAUTH=; expires=Tue, 12-Oct-1999/)]),
    );
    expect(first.cookies.has(".ASPXAUTH")).toBe(false);
    expect(afterwards.status).toBe(401);
    expect(second.status).toBe(204);
    expect(await erp.state()).toMatchObject({ logouts: 1, loginsOpen: 1 });
  });
});

describe("request framing", () => {
  it("answers 411 to a POST that declares no length, as IIS does for a bare curl -X POST", async () => {
    const erp = await start();
    const { hostname, port, pathname } = new URL(erp.instanceUrl);

    const statusLine = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          `POST ${pathname}/entity/auth/logout HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`,
        );
      });
      let received = "";
      socket.on("data", (chunk) => {
        received += chunk.toString();
      });
      socket.on("end", () => resolve(received.split("\r\n")[0] ?? ""));
      socket.on("error", reject);
    });

    expect(statusLine).toMatch(/^HTTP\/1\.1 411/);
  });

  it("answers a logout without a session with 204 all the same", async () => {
    const erp = await start();

    const response = await new AcumaticaClient(erp.instanceUrl).logout();

    expect(response.status).toBe(204);
  });
});

describe("sessions", () => {
  it("answers 401 'You are not logged in.' without a session", async () => {
    const erp = await start();

    const response = await new AcumaticaClient(erp.instanceUrl).request(
      "GET",
      "/entity/Default/23.200.001/StockItem",
    );

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: "You are not logged in." });
  });

  it("closes a session left idle for 10 minutes and frees its seat", async () => {
    const erp = await start();
    await erp.configure({ seats: 1 });
    const abandoned = new AcumaticaClient(erp.instanceUrl);
    await abandoned.login();

    const refusedWhileOpen = await new AcumaticaClient(erp.instanceUrl).login();
    await erp.advanceSeconds(601);
    const expiredRequest = await abandoned.request("GET", "/entity/Default/23.200.001/StockItem?$top=1");
    const afterExpiry = await new AcumaticaClient(erp.instanceUrl).login();

    expect(refusedWhileOpen.status).toBe(429);
    expect(expiredRequest.status).toBe(401);
    expect(afterExpiry.status).toBe(204);
    expect(await erp.state()).toMatchObject({ sessionsExpired: 1 });
  });

  it("keeps a session alive while it is used (the idle timeout slides)", async () => {
    const erp = await start();
    const client = new AcumaticaClient(erp.instanceUrl);
    await client.login();

    await erp.advanceSeconds(500);
    const first = await client.request("GET", "/entity/Default/23.200.001/StockItem?$top=1");
    await erp.advanceSeconds(500);
    const second = await client.request("GET", "/entity/Default/23.200.001/StockItem?$top=1");

    expect([first.status, second.status]).toEqual([200, 200]);
  });

  it("uses the configured idle timeout", async () => {
    const erp = await start();
    await erp.configure({ idleTimeoutSeconds: 60 });
    const client = new AcumaticaClient(erp.instanceUrl);
    await client.login();

    await erp.advanceSeconds(61);
    const response = await client.request("GET", "/entity/Default/23.200.001/StockItem?$top=1");

    expect(response.status).toBe(401);
  });
});

describe("GET /entity", () => {
  it("lists the build and the Default endpoint versions without a session", async () => {
    const erp = await start();

    const body = await new AcumaticaClient(erp.instanceUrl).getJson<{
      version: { acumaticaBuildVersion: string };
      endpoints: { name: string; version: string; href: string }[];
    }>("/entity");

    expect(body.version.acumaticaBuildVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(body.endpoints.map((endpoint) => endpoint.version)).toEqual([
      "18.200.001",
      "20.200.001",
      "22.200.001",
      "23.200.001",
      "24.200.001",
      "25.200.001",
    ]);
    expect(body.endpoints[3]).toEqual({
      name: "Default",
      version: "23.200.001",
      href: "/acumatica/entity/Default/23.200.001/",
    });
  });

  it("answers an unknown endpoint name or version with a Web API 404", async () => {
    const erp = await start();
    const client = new AcumaticaClient(erp.instanceUrl);
    await client.login();

    const badVersion = await client.request("GET", "/entity/Default/21.200.001/StockItem");
    const badName = await client.request("GET", "/entity/Custom/23.200.001/StockItem");

    expect(badVersion.status).toBe(404);
    expect(badName.status).toBe(404);
    expect(((await badVersion.json()) as { message: string }).message).toMatch(/^No HTTP resource was found/);
  });

  it("serves a swagger.json per endpoint version", async () => {
    const erp = await start();
    const client = new AcumaticaClient(erp.instanceUrl);

    const swagger = await client.getJson<{
      info: { title: string; version: string };
      paths: Record<string, unknown>;
    }>("/entity/Default/22.200.001/swagger.json");

    expect(swagger.info).toEqual({ title: "Default/22.200.001", version: "4" });
    expect(Object.keys(swagger.paths)).toEqual(
      expect.arrayContaining(["/StockItem", "/StockItem/{ids}", "/InventoryQuantityAvailable", "/Company"]),
    );
  });

  it("leaves Company out of the swagger and answers 404 for it on an endpoint without that entity", async () => {
    const erp = await start();
    const client = new AcumaticaClient(erp.instanceUrl);
    await erp.configure({ companyEntity: false });

    const swagger = await client.getJson<{ paths: Record<string, unknown> }>(
      "/entity/Default/22.200.001/swagger.json",
    );

    expect(Object.keys(swagger.paths)).not.toContain("/Company");
    expect(Object.keys(swagger.paths)).toContain("/StockItem");
    await client.login();
    expect((await client.request("GET", "/entity/Default/22.200.001/Company")).status).toBe(404);
    expect((await client.request("GET", "/entity/Default/22.200.001/StockItem?$top=1")).status).toBe(200);
  });
});
