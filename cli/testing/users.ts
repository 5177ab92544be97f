import { randomUUID } from "node:crypto";
import {
  ACUMATICA_API_VERSIONS,
  type ApiClient,
  createApiClient,
  SANDBOX_DEMO,
  SHOPIFY_API_VERSIONS,
} from "@stockbridge/shared";
import { waitForJob } from "../../e2e/support/catalog-setup.ts";
import { subscribeThroughCheckout } from "../../e2e/support/subscribe.ts";
import { startHoldServer } from "./hold-server.ts";

export interface TestUser {
  name: string;
  email: string;
  password: string;
  token: string;
  /** The shared client with this user's token, for set-up the CLI is not under test for. */
  api: ApiClient;
}

/** A new account registered through the API: each test builds its own user. */
export async function newUser(appUrl: string): Promise<TestUser> {
  const name = "Cli Tester";
  const email = `cli-${randomUUID()}@example.com`;
  const password = "Cli-Passw0rd";
  const anonymous = createApiClient({ baseUrl: `${appUrl}/api`, getToken: () => null });
  const { token } = await anonymous.call("register", { body: { name, email, password } });
  const api = createApiClient({ baseUrl: `${appUrl}/api`, getToken: () => token });
  return { name, email, password, token, api };
}

/** A subscriber with both sandbox connections saved (SANDBOX_DEMO): ready to pull catalogs. */
export async function newConnectedSubscriber(appUrl: string, sandboxUrl: string): Promise<TestUser> {
  const user = await newUser(appUrl);
  await subscribeThroughCheckout(user.api, sandboxUrl);
  const { shopify, acumatica } = SANDBOX_DEMO;
  await user.api.call("saveShopify", {
    body: { ...shopify, apiVersion: oneOf(SHOPIFY_API_VERSIONS, shopify.apiVersion) },
  });
  await user.api.call("saveAcumatica", {
    body: {
      name: acumatica.name,
      apiVersion: oneOf(ACUMATICA_API_VERSIONS, acumatica.apiVersion),
      instanceUri: `${sandboxUrl}${acumatica.instancePath}`,
      endpointName: acumatica.endpointName,
      username: acumatica.username,
      password: acumatica.password,
      company: acumatica.company,
    },
  });
  return user;
}

/** A connected subscriber whose catalogs are pulled and auto-mapped through the API. */
export async function newMappedSubscriber(appUrl: string, sandboxUrl: string): Promise<TestUser> {
  const user = await newConnectedSubscriber(appUrl, sandboxUrl);
  const [shopify, acumatica] = await Promise.all([
    user.api.call("syncShopifyProducts"),
    user.api.call("syncAcumaticaProducts"),
  ]);
  await Promise.all([waitForJob(user.api, shopify.job), waitForJob(user.api, acumatica.job)]);
  await waitForJob(user.api, (await user.api.call("autoMap")).job);
  return user;
}

/**
 * Points the user's Acumatica connection at a server that holds every request until `release()`
 * (then refuses the login): the user's next sync or Acumatica pull runs until the test releases it.
 */
export async function holdAcumatica(user: TestUser): Promise<{ release(): void }> {
  const hold = await startHoldServer();
  const { acumatica } = SANDBOX_DEMO;
  await user.api.call("saveAcumatica", {
    body: {
      name: acumatica.name,
      apiVersion: oneOf(ACUMATICA_API_VERSIONS, acumatica.apiVersion),
      instanceUri: hold.url,
      endpointName: acumatica.endpointName,
      username: acumatica.username,
      password: acumatica.password,
      company: acumatica.company,
    },
  });
  return hold;
}

function oneOf<T extends string>(choices: readonly T[], value: string): T {
  const found = choices.find((choice) => choice === value);
  if (!found) throw new Error(`${value} is not one of ${choices.join(", ")}`);
  return found;
}
