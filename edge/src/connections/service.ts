import {
  type AcumaticaConnection,
  type AcumaticaConnectionInput,
  type Connections,
  MESSAGES,
  type ShopifyConnection,
  type ShopifyConnectionInput,
} from "@stockbridge/shared";
import { readBaseCurrencyIfKnown } from "../connectors/acumatica/base-currency.ts";
import type { AcumaticaConnectionInfo } from "../connectors/acumatica/session.ts";
import type { Connectors, ShopifyCredentials } from "../connectors/connectors.ts";
import { SHOP_QUERY } from "../connectors/shopify/shop-query.ts";
import { normalizeStoreName, STORE_NAME_RULE } from "../connectors/shopify/store-name.ts";
import { ConflictError, NotFoundError, UpstreamError, ValidationError } from "../errors.ts";
import { type OutboundGuard, OutboundRefusedError } from "../security/outbound-guard.ts";
import { type SecretBox, SecretBoxError } from "../security/secret-box.ts";
import type { AcumaticaRecord, ConnectionsRepo, ShopifyRecord } from "./repo.ts";

export interface ConnectionsServiceDeps {
  repo: ConnectionsRepo;
  secrets: SecretBox;
  guard: OutboundGuard;
  connectors: Connectors;
  now: () => Date;
  /** Server log lines (Shopify's deprecation notices, once per connection). */
  log: (line: string) => void;
}

const PASSWORD = (userId: string) => `acumatica.password:${userId}`;
const TOKEN = (userId: string) => `shopify.accessToken:${userId}`;

/**
 * Saving, showing and testing the two connections. Secrets are sealed at rest and never answered
 * (`passwordSet` / `accessTokenSet`); a blank secret on save keeps the saved one; changing what the
 * connection logs in with clears `isVerified` until the next successful test.
 */
export function createConnectionsService(deps: ConnectionsServiceDeps) {
  const { repo, secrets } = deps;

  /**
   * Keeps what Shopify's `X-Shopify-API-Deprecated-Reason` said so the Shopify card shows it, and
   * logs it the first time the connection sees it (not on every call that repeats it).
   */
  async function recordShopifyDeprecation(userId: string, notice: string): Promise<void> {
    if (!(await repo.recordShopifyDeprecation(userId, notice))) return;
    const record = await repo.findShopify(userId);
    deps.log(
      `Shopify deprecation notice for ${record?.storeName ?? "a store"} (user ${userId}, API ${record?.servedApiVersion ?? "unknown"}): ${notice}`,
    );
  }

  async function open(sealed: string, context: string, what: string): Promise<string> {
    try {
      return await secrets.open(sealed, context);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      throw new ConflictError(
        `The saved ${what} can no longer be read (${error.message}) Enter it again and save.`,
      );
    }
  }

  /** A blank secret keeps the saved one; the same secret again is no change (and is not re-sealed). */
  async function sealIfNew(candidate: string, saved: string | undefined, context: string) {
    if (!candidate) return { sealed: saved ?? "", changed: false };
    if (saved && (await secrets.open(saved, context).catch(() => null)) === candidate)
      return { sealed: saved, changed: false };
    return { sealed: await secrets.seal(candidate, context), changed: true };
  }

  async function checkInstanceUri(instanceUri: string) {
    try {
      await deps.guard.check(instanceUri);
    } catch (error) {
      // A host that does not resolve today may tomorrow: the test reports it as unreachable.
      if (!(error instanceof OutboundRefusedError) || error.kind === "unresolvable") return;
      const message = `Instance URL is not allowed: ${error.message}`;
      throw new ValidationError(message, [{ path: "instanceUri", message }]);
    }
  }

  async function acumaticaCredentials(userId: string): Promise<AcumaticaConnectionInfo> {
    const record = await repo.findAcumatica(userId);
    if (!record) throw new NotFoundError("No Acumatica connection is saved yet: save it in Settings first.");
    return {
      ...record,
      password: await open(record.passwordSealed, PASSWORD(userId), "Acumatica password"),
      // One connection per user: its sessions share the user's seats, whichever instance opens them.
      sessions: { key: userId, max: record.maxSessions },
    };
  }

  async function shopifyCredentials(userId: string): Promise<ShopifyCredentials> {
    const record = await repo.findShopify(userId);
    if (!record) throw new NotFoundError("No Shopify connection is saved yet: save it in Settings first.");
    return {
      storeName: record.storeName,
      apiVersion: record.apiVersion,
      accessToken: await open(record.accessTokenSealed, TOKEN(userId), "Shopify access token"),
    };
  }

  return {
    acumaticaCredentials,
    shopifyCredentials,

    /** The currencies the catalogs' prices are in, as the last connection tests read them. */
    async currencies(userId: string): Promise<{ shopify: string | null; acumatica: string | null }> {
      const [acumatica, shopify] = await Promise.all([repo.findAcumatica(userId), repo.findShopify(userId)]);
      return { shopify: shopify?.currencyCode ?? null, acumatica: acumatica?.baseCurrency ?? null };
    },

    async list(userId: string): Promise<Connections> {
      const [acumatica, shopify] = await Promise.all([repo.findAcumatica(userId), repo.findShopify(userId)]);
      return {
        acumaticaConnection: acumatica ? acumaticaView(acumatica) : null,
        shopifyConnection: shopify ? shopifyView(shopify) : null,
      };
    },

    async saveAcumatica(userId: string, input: AcumaticaConnectionInput): Promise<AcumaticaConnection> {
      const instanceUri = input.instanceUri.trim().replace(/\/+$/, "");
      await checkInstanceUri(instanceUri);
      const saved = await repo.findAcumatica(userId);
      if (!input.password && !saved) {
        throw new ValidationError("Password is required", [
          { path: "password", message: "Password is required" },
        ]);
      }
      const password = await sealIfNew(input.password, saved?.passwordSealed, PASSWORD(userId));
      const loginChanged =
        !saved ||
        password.changed ||
        saved.instanceUri !== instanceUri ||
        saved.endpointName !== input.endpointName ||
        saved.apiVersion !== input.apiVersion ||
        saved.username !== input.username ||
        saved.company !== input.company;
      const record: AcumaticaRecord = {
        name: input.name,
        apiVersion: input.apiVersion,
        instanceUri,
        endpointName: input.endpointName,
        username: input.username,
        company: input.company,
        maxSessions: input.maxSessions,
        passwordSealed: password.sealed,
        baseCurrency: loginChanged ? null : (saved?.baseCurrency ?? null),
        isVerified: loginChanged ? false : (saved?.isVerified ?? false),
        lastTestedAt: saved?.lastTestedAt ?? null,
        lastTestError: loginChanged ? null : (saved?.lastTestError ?? null),
      };
      await repo.saveAcumatica(userId, record, deps.now().toISOString());
      return acumaticaView(record);
    },

    async saveShopify(userId: string, input: ShopifyConnectionInput): Promise<ShopifyConnection> {
      const storeName = normalizeStoreName(input.storeName);
      if (!storeName)
        throw new ValidationError(STORE_NAME_RULE, [{ path: "storeName", message: STORE_NAME_RULE }]);
      const saved = await repo.findShopify(userId);
      if (!input.accessToken && !saved) {
        throw new ValidationError("Access token is required", [
          { path: "accessToken", message: "Access token is required" },
        ]);
      }
      const token = await sealIfNew(input.accessToken.trim(), saved?.accessTokenSealed, TOKEN(userId));
      const targetChanged = !saved || saved.storeName !== storeName || saved.apiVersion !== input.apiVersion;
      const loginChanged = targetChanged || token.changed;
      const record: ShopifyRecord = {
        name: input.name,
        apiVersion: input.apiVersion,
        storeName,
        accessTokenSealed: token.sealed,
        servedApiVersion: targetChanged ? null : (saved?.servedApiVersion ?? null),
        deprecationNotice: targetChanged ? null : (saved?.deprecationNotice ?? null),
        currencyCode: targetChanged ? null : (saved?.currencyCode ?? null),
        isVerified: loginChanged ? false : (saved?.isVerified ?? false),
        lastTestedAt: saved?.lastTestedAt ?? null,
        lastTestError: loginChanged ? null : (saved?.lastTestError ?? null),
      };
      await repo.saveShopify(userId, record, deps.now().toISOString());
      return shopifyView(record);
    },

    /** Log in, confirm the endpoint name and version exist (`GET /entity`), read the base currency, log out. */
    async testAcumatica(userId: string): Promise<AcumaticaConnection> {
      const connection = await acumaticaCredentials(userId);
      const at = deps.now().toISOString();
      let baseCurrency: string | null = null;
      try {
        // Resolved afresh: the host may point somewhere else than when it was saved.
        await refusedAsUpstream(deps.guard, connection.instanceUri, {
          system: "Acumatica",
          what: "the instance address",
        });
        await deps.connectors.acumatica(
          connection,
          async (api) => {
            baseCurrency = await readBaseCurrencyIfKnown(api);
          },
          {
            maxAttempts: 2,
            timeoutMs: 20_000,
            verifyEndpoint: true,
          },
        );
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        const message = `${MESSAGES.connections.acumaticaTestFailed}: ${error.message}`;
        await repo.recordAcumaticaTest(userId, { ok: false, at, error: message, baseCurrency: null });
        throw new UpstreamError("Acumatica", message);
      }
      await repo.recordAcumaticaTest(userId, { ok: true, at, error: null, baseCurrency });
      const record = await repo.findAcumatica(userId);
      if (!record)
        throw new NotFoundError("No Acumatica connection is saved yet: save it in Settings first.");
      return acumaticaView(record);
    },

    /** An authenticated `shop` query; records the API version Shopify says it served. */
    async testShopify(userId: string): Promise<ShopifyConnection> {
      const credentials = await shopifyCredentials(userId);
      const at = deps.now().toISOString();
      const client = deps.connectors.shopify(credentials, { maxAttempts: 2, timeoutMs: 20_000 });
      let currencyCode: string | null = null;
      try {
        await refusedAsUpstream(deps.guard, deps.connectors.shopifyOrigin(credentials.storeName), {
          system: "Shopify",
          what: "the store address",
        });
        const answer = await client.request<{ shop?: { currencyCode?: unknown } }>(SHOP_QUERY);
        currencyCode = typeof answer.shop?.currencyCode === "string" ? answer.shop.currencyCode : null;
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        const message = `${MESSAGES.connections.shopifyTestFailed}: ${error.message}`;
        await repo.recordShopifyTest(userId, {
          ok: false,
          at,
          error: message,
          servedApiVersion: null,
          currencyCode: null,
        });
        throw new UpstreamError("Shopify", message);
      }
      await repo.recordShopifyTest(userId, {
        ok: true,
        at,
        error: null,
        servedApiVersion: client.servedVersion,
        currencyCode,
      });
      if (client.deprecationNotice) await recordShopifyDeprecation(userId, client.deprecationNotice);
      const record = await repo.findShopify(userId);
      if (!record) throw new NotFoundError("No Shopify connection is saved yet: save it in Settings first.");
      return shopifyView(record);
    },

    recordServedShopifyVersion: (userId: string, version: string) =>
      repo.recordServedShopifyVersion(userId, version),

    recordShopifyDeprecation,
  };
}

export type ConnectionsService = ReturnType<typeof createConnectionsService>;

async function refusedAsUpstream(
  guard: OutboundGuard,
  url: string,
  { system, what }: { system: "Shopify" | "Acumatica"; what: string },
) {
  try {
    await guard.check(url);
  } catch (error) {
    if (!(error instanceof OutboundRefusedError)) throw error;
    throw new UpstreamError(
      system,
      error.kind === "unresolvable"
        ? `unreachable host: ${error.message}`
        : `${what} is not allowed: ${error.message}`,
    );
  }
}

function acumaticaView(record: AcumaticaRecord): AcumaticaConnection {
  return {
    name: record.name,
    apiVersion: record.apiVersion,
    instanceUri: record.instanceUri,
    endpointName: record.endpointName,
    username: record.username,
    company: record.company,
    maxSessions: record.maxSessions,
    passwordSet: record.passwordSealed !== "",
    baseCurrency: record.baseCurrency,
    isVerified: record.isVerified,
    lastTestedAt: record.lastTestedAt,
    lastTestError: record.lastTestError,
  };
}

function shopifyView(record: ShopifyRecord): ShopifyConnection {
  return {
    name: record.name,
    apiVersion: record.apiVersion,
    storeName: record.storeName,
    accessTokenSet: record.accessTokenSealed !== "",
    servedApiVersion: record.servedApiVersion,
    deprecationNotice: record.deprecationNotice,
    currencyCode: record.currencyCode,
    isVerified: record.isVerified,
    lastTestedAt: record.lastTestedAt,
    lastTestError: record.lastTestError,
  };
}
