/**
 * The sandbox as other packages' tests and benchmarks see it: start it (in this process, over
 * HTTP), generate the same seeded catalogs it serves, and check a GraphQL document against the
 * Shopify schema it serves. Nothing else of its internals is for outside use.
 */
export { stableGuid } from "./acumatica/json.ts";
export { createClock, type SandboxClock } from "./clock.ts";
export {
  type DemoCatalog,
  generateCatalog,
  type SeedErpItem,
  type SeedProduct,
  type SeedVariant,
} from "./seed/catalog.ts";
export { type RunningSandbox, startSandbox } from "./serve-node.ts";
export { SCHEMA_KEYS, validateShopifyOperation } from "./shopify/index.ts";
