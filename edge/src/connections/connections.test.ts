import { afterEach, describe, expect, it } from "vitest";
import { type ConnectedApp, createConnectedApp } from "../../testing/connectors-harness.ts";
import { failure } from "../../testing/helpers.ts";

let app: ConnectedApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe("GET /api/users/connections", () => {
  it("answers null for connections not saved yet", async () => {
    app = await createConnectedApp();
    expect(await app.api.call("getConnections")).toEqual({
      acumaticaConnection: null,
      shopifyConnection: null,
    });
  });
});

describe("POST /api/users/shopify", () => {
  it("saves without answering the token, normalising a full myshopify domain", async () => {
    app = await createConnectedApp();
    const saved = await app.connectShopify({ storeName: "https://Stockbridge-Demo.myshopify.com/admin" });
    expect(saved).toEqual({
      name: "Sandbox store",
      apiVersion: "2025-04",
      storeName: "stockbridge-demo",
      accessTokenSet: true,
      servedApiVersion: null,
      deprecationNotice: null,
      currencyCode: null,
      isVerified: false,
      lastTestedAt: null,
      lastTestError: null,
    });
    expect((await app.api.call("getConnections")).shopifyConnection).toEqual(saved);
    const me = await app.api.call("me");
    expect(me.user.shopifyConnection).toEqual(saved);
  });

  it("needs a token on the first save and keeps the saved one when the field is blank", async () => {
    app = await createConnectedApp();
    const first = await failure(app.connectShopify({ accessToken: "" }));
    expect(first.status).toBe(400);
    expect(first.errors).toContainEqual({ path: "accessToken", message: "Access token is required" });
    await app.connectShopify();
    await app.connectShopify({ accessToken: "", name: "Renamed" });
    expect(await app.api.call("testShopify")).toMatchObject({ name: "Renamed", isVerified: true });
  });

  it.each(["evil.com/x", "127.0.0.1", "a_b", "-shop", "shop.example.com"])(
    "refuses the store name %j",
    async (storeName) => {
      app = await createConnectedApp();
      const error = await failure(app.connectShopify({ storeName }));
      expect(error.status).toBe(400);
      expect(error.errors[0]?.path).toBe("storeName");
    },
  );

  it("clears isVerified when the credentials change, not when only the name does", async () => {
    app = await createConnectedApp();
    await app.connectShopify();
    await app.api.call("testShopify");
    expect(await app.connectShopify({ name: "Main store", accessToken: "" })).toMatchObject({
      isVerified: true,
      servedApiVersion: "2026-01",
    });
    expect(await app.connectShopify({ accessToken: "shpat_another_token" })).toMatchObject({
      isVerified: false,
      lastTestError: null,
    });
  });
});

describe("control characters in connection fields", () => {
  const HOSTILE = ["Main\u0000store", "a\u001b[31mb", "tab\there", "line\nbreak", "c1\u0085x", "del\u007f"];

  it("refuses them in each free-text field of either connection with a 400 naming the field, saving nothing", async () => {
    app = await createConnectedApp();
    const target = app;
    const fields = [
      { save: target.connectAcumatica.bind(target), path: "name", label: "Name" },
      { save: target.connectAcumatica.bind(target), path: "endpointName", label: "Endpoint name" },
      { save: target.connectAcumatica.bind(target), path: "username", label: "Username" },
      { save: target.connectAcumatica.bind(target), path: "company", label: "Company" },
      { save: target.connectShopify.bind(target), path: "name", label: "Name" },
      { save: target.connectShopify.bind(target), path: "storeName", label: "Store name" },
    ];
    for (const field of fields) {
      for (const value of HOSTILE) {
        const error = await failure(field.save({ [field.path]: value }));
        expect(error.status, `${field.path} ${JSON.stringify(value)}`).toBe(400);
        expect(error.errors[0], `${field.path} ${JSON.stringify(value)}`).toEqual({
          path: field.path,
          message: `${field.label} must not contain control characters`,
        });
      }
    }
    expect(await target.api.call("getConnections")).toEqual({
      acumaticaConnection: null,
      shopifyConnection: null,
    });
    // Letters of any script, spaces inside and punctuation stay allowed; outer spaces are trimmed.
    const saved = await target.connectAcumatica({
      name: "  Zentrale Müller & Söhne (東京)  ",
      company: "Company A",
    });
    expect(saved).toMatchObject({ name: "Zentrale Müller & Söhne (東京)", company: "Company A" });
  });
});

describe("POST /api/users/shopify/test", () => {
  it("queries the shop and records the version Shopify served (expired versions fall forward)", async () => {
    app = await createConnectedApp();
    await app.connectShopify({ apiVersion: "2024-07" });
    const tested = await app.api.call("testShopify");
    expect(tested).toMatchObject({
      isVerified: true,
      servedApiVersion: "2026-01",
      lastTestedAt: "2026-11-21T10:00:00.000Z",
      lastTestError: null,
    });
    expect(app.shopify.state()).toMatchObject({ calls: 1, unauthorized: 0 });
  });

  it("answers 502 naming the cause and stores the failure on the connection", async () => {
    app = await createConnectedApp();
    await app.connectShopify();
    await app.api.call("testShopify");
    await app.connectShopify({ accessToken: "shpat_wrong" });
    const error = await failure(app.api.call("testShopify"));
    expect(error.status).toBe(502);
    expect(error.message).toBe(
      "Shopify connection test failed: invalid access token (Shopify answered 401: [API] Invalid API key or access token (unrecognized login or wrong password))",
    );
    expect((await app.api.call("getConnections")).shopifyConnection).toMatchObject({
      isVerified: false,
      lastTestError: error.message,
      servedApiVersion: "2026-01",
    });
  });

  it("names an unknown store", async () => {
    app = await createConnectedApp();
    await app.connectShopify({ storeName: "no-such-store" });
    const error = await failure(app.api.call("testShopify"));
    expect(error.message).toMatch(
      /^Shopify connection test failed: unknown store "no-such-store" or API version 2025-04/,
    );
  });

  it("answers 404 when nothing is saved", async () => {
    app = await createConnectedApp();
    expect((await failure(app.api.call("testShopify"))).status).toBe(404);
  });
});

describe("POST /api/users/acumatica", () => {
  it("saves without answering the password; a blank password keeps the saved one", async () => {
    app = await createConnectedApp();
    const first = await failure(app.connectAcumatica({ password: "" }));
    expect(first.errors).toContainEqual({ path: "password", message: "Password is required" });
    const saved = await app.connectAcumatica({ instanceUri: `${app.origin}/acumatica/` });
    expect(saved).toMatchObject({
      passwordSet: true,
      isVerified: false,
      instanceUri: `${app.origin}/acumatica`,
      company: "StockbridgeDemo",
    });
    expect(saved).not.toHaveProperty("password");
    await app.connectAcumatica({ password: "" });
    expect(await app.api.call("testAcumatica")).toMatchObject({ isVerified: true, lastTestError: null });
    expect(await app.connectAcumatica({ password: "", name: "ERP" })).toMatchObject({ isVerified: true });
    expect(await app.connectAcumatica({ password: "", company: "Other" })).toMatchObject({
      isVerified: false,
    });
  });

  it("saves Max Sessions (2 when left out) without unverifying the connection", async () => {
    app = await createConnectedApp();
    expect(await app.connectAcumatica()).toMatchObject({ maxSessions: 2 });
    await app.api.call("testAcumatica");
    const saved = await app.connectAcumatica({ password: "", maxSessions: 5 });
    expect(saved).toMatchObject({ maxSessions: 5, isVerified: true });
    expect((await app.api.call("getConnections")).acumaticaConnection).toEqual(saved);
    expect((await app.api.call("me")).user.acumaticaConnection).toEqual(saved);
  });

  it.each([0, 21, 1.5, "3", null])(
    "refuses Max Sessions %j naming the field and the rule",
    async (maxSessions) => {
      app = await createConnectedApp();
      const response = await app.request("/api/users/acumatica", {
        token: app.user.token,
        body: { ...app.demoAcumatica, maxSessions },
      });
      expect(response.status).toBe(400);
      expect((await response.json()).errors).toEqual([
        { path: "maxSessions", message: "Max sessions must be a whole number from 1 to 20" },
      ]);
    },
  );
});

describe("both systems' currencies", () => {
  it("records the shop's and the ERP's currencies on the tests, so Settings can warn before a run", async () => {
    app = await createConnectedApp();
    await app.connectShopify();
    await app.connectAcumatica();
    expect(await app.api.call("testShopify")).toMatchObject({ currencyCode: "USD" });
    expect(await app.api.call("testAcumatica")).toMatchObject({ baseCurrency: "USD" });

    app.shopify.configure({ currencyCode: "EUR" });
    await app.api.call("testShopify");
    const { shopifyConnection, acumaticaConnection } = await app.api.call("getConnections");
    expect([shopifyConnection?.currencyCode, acumaticaConnection?.baseCurrency]).toEqual(["EUR", "USD"]);
    expect((await app.api.call("me")).user.shopifyConnection?.currencyCode).toBe("EUR");

    // Pointing the card at another store forgets the old store's currency until it is tested.
    expect(await app.connectShopify({ storeName: "another-store" })).toMatchObject({ currencyCode: null });
  });
});

describe("POST /api/users/acumatica/test", () => {
  it("logs in, finds the endpoint version, and logs out", async () => {
    app = await createConnectedApp();
    await app.connectAcumatica();
    expect(await app.api.call("testAcumatica")).toMatchObject({
      isVerified: true,
      lastTestedAt: "2026-11-21T10:00:00.000Z",
    });
    expect(app.acumatica.state()).toMatchObject({ logins: 1, logouts: 1, loginsOpen: 0 });
  });

  it.each([
    [{ password: "Wrong-Passw0rd" }, "Acumatica connection test failed: invalid credentials"],
    [
      { company: "NoSuchTenant" },
      'Acumatica connection test failed: unknown company "NoSuchTenant" (the tenant\'s login name on this instance)',
    ],
    [
      { endpointName: "Custom" },
      'Acumatica connection test failed: unknown endpoint "Custom" (this instance offers Default)',
    ],
  ])("names the cause for %j and never leaves a session open", async (change, message) => {
    app = await createConnectedApp();
    await app.connectAcumatica(change);
    const error = await failure(app.api.call("testAcumatica"));
    expect(error).toMatchObject({ status: 502, message });
    expect((await app.api.call("getConnections")).acumaticaConnection).toMatchObject({
      isVerified: false,
      lastTestError: message,
    });
    expect(app.acumatica.state().loginsOpen).toBe(0);
  });

  it("names an endpoint version the instance does not offer", async () => {
    app = await createConnectedApp();
    await app.connectAcumatica();
    await app.db.execute("UPDATE acumatica_connections SET api_version = '26.200.001'");
    const error = await failure(app.api.call("testAcumatica"));
    expect(error.message).toBe(
      "Acumatica connection test failed: unknown endpoint version: Default/26.200.001 is not offered by this instance (it offers 18.200.001, 20.200.001, 22.200.001, 23.200.001, 24.200.001, 25.200.001)",
    );
    expect(app.acumatica.state()).toMatchObject({ logins: 1, logouts: 1, loginsOpen: 0 });
  });

  it("says the licence limit is reached when every API seat is taken", async () => {
    app = await createConnectedApp();
    app.acumatica.configure({ seats: 1 });
    await app.connectAcumatica();
    const seat = await fetch(`${app.origin}/acumatica/entity/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        name: "admin",
        password: app.demoAcumatica.password,
        tenant: "StockbridgeDemo",
      }),
    });
    expect(seat.status).toBe(204);
    const error = await failure(app.api.call("testAcumatica"));
    expect(error.message).toMatch(
      /^Acumatica connection test failed: licence limit reached: every API user seat/,
    );
  });

  it("says the host is unreachable", async () => {
    app = await createConnectedApp();
    await app.connectAcumatica({ instanceUri: "http://127.0.0.1:9/acumatica" });
    const error = await failure(app.api.call("testAcumatica"));
    expect(error.message).toMatch(
      /^Acumatica connection test failed: unreachable host: http:\/\/127\.0\.0\.1:9\/acumatica \(/,
    );
  });
});
