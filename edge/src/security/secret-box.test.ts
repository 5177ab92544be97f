import { SANDBOX_DEMO } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type ConnectedApp, createConnectedApp } from "../../testing/connectors-harness.ts";
import { createSecretBox, parseKeyRing, SecretBoxError } from "./secret-box.ts";

const KEY_A = `a:${Buffer.alloc(32, 1).toString("base64")}`;
const KEY_B = `b:${Buffer.alloc(32, 2).toString("base64")}`;

describe("createSecretBox", () => {
  it("seals with the first key, naming it, and opens what it sealed", async () => {
    const box = createSecretBox(`${KEY_A},${KEY_B}`);
    const sealed = await box.seal("shpat_secret", "shopify.accessToken:u1");
    expect(sealed).toMatch(/^v1:a:[\w-]+:[\w-]+$/);
    expect(sealed).not.toContain("shpat_secret");
    expect(await box.open(sealed, "shopify.accessToken:u1")).toBe("shpat_secret");
    expect(await box.seal("shpat_secret", "shopify.accessToken:u1")).not.toBe(sealed);
  });

  it("opens values sealed with an older key after rotation, and seals new ones with the new key", async () => {
    const old = await createSecretBox(KEY_A).seal("Passw0rd", "ctx");
    const rotated = createSecretBox(`${KEY_B},${KEY_A}`);
    expect(await rotated.open(old, "ctx")).toBe("Passw0rd");
    expect(await rotated.seal("Passw0rd", "ctx")).toMatch(/^v1:b:/);
    await expect(createSecretBox(KEY_B).open(old, "ctx")).rejects.toThrow(
      'sealed with key "a", which is no longer in ENCRYPTION_KEYS',
    );
  });

  it("refuses a value moved to another user or tampered with", async () => {
    const box = createSecretBox(KEY_A);
    const sealed = await box.seal("Passw0rd", "acumatica.password:u1");
    await expect(box.open(sealed, "acumatica.password:u2")).rejects.toBeInstanceOf(SecretBoxError);
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith("A") ? "B" : "A"}A`;
    await expect(box.open(tampered, "acumatica.password:u1")).rejects.toBeInstanceOf(SecretBoxError);
  });

  it.each([
    ["nokey", "ENCRYPTION_KEYS must be"],
    ["a:!!!", 'the key "a" is not valid base64'],
    [`a:${Buffer.alloc(16).toString("base64")}`, 'the key "a" must be 32 bytes (got 16)'],
    [`${KEY_A},${KEY_A}`, 'the key id "a" appears twice'],
  ])("explains a bad key ring %j", (ring, message) => {
    expect(() => parseKeyRing(ring)).toThrow(message);
  });

  it("cannot seal without keys, and says why", async () => {
    await expect(createSecretBox(undefined).seal("x", "ctx")).rejects.toThrow(
      "ENCRYPTION_KEYS is not configured",
    );
  });
});

describe("connection secrets", () => {
  let app: ConnectedApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it("never appear in an answer, a log line or the database", async () => {
    app = await createConnectedApp();
    const target = app;
    const wrongToken = "shpat_wrong_0123456789abcdef0123456789";
    const wrongPassword = "Wrong-Secret-Passw0rd";
    const secrets = [
      SANDBOX_DEMO.shopify.accessToken,
      SANDBOX_DEMO.acumatica.password,
      wrongToken,
      wrongPassword,
    ];
    const answers: string[] = [];
    const call = async (path: string, body?: unknown) => {
      const response = await target.request(path, {
        token: target.user.token,
        body,
        method: body === undefined && !path.includes("/test") && !path.endsWith("/sync") ? "GET" : "POST",
      });
      const text = await response.text();
      answers.push(text);
      return JSON.parse(text) as { data?: { job?: { _id: string } } };
    };

    await call("/api/users/shopify", { ...SANDBOX_DEMO.shopify });
    await call("/api/users/acumatica", { ...target.demoAcumatica });
    await call("/api/users/connections");
    await call("/api/auth/me");
    await call("/api/users/shopify/test");
    await call("/api/users/acumatica/test");
    await call("/api/users/shopify", { ...SANDBOX_DEMO.shopify, accessToken: wrongToken });
    await call("/api/users/acumatica", { ...target.demoAcumatica, password: wrongPassword });
    await call("/api/users/shopify/test");
    await call("/api/users/acumatica/test");
    for (const path of ["/api/shopify/products/sync", "/api/acumatica/products/sync"]) {
      const started = await call(path);
      const job = await target.waitForJob(started.data?.job?._id ?? "");
      expect(job.status).toBe("failed");
      answers.push(JSON.stringify(job));
      const events = await target.request(`/api/jobs/${job._id}/events?token=${target.user.token}`);
      answers.push(await events.text());
    }
    await call("/api/users/connections");

    expect(target.logs.length).toBeGreaterThan(0); // the failed pulls were logged
    const rows = await target.db.execute("SELECT * FROM shopify_connections, acumatica_connections");
    const stored = JSON.stringify(rows.rows);
    for (const secret of secrets) {
      for (const text of [...answers, ...target.logs, stored]) expect(text).not.toContain(secret);
    }
    expect(answers.join("\n")).toContain("Shopify connection test failed: invalid access token");
    expect(answers.join("\n")).toContain("Acumatica connection test failed: invalid credentials");
  });
});
