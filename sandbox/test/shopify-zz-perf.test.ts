import { it } from "vitest";
import { startShopify } from "./shopify-harness.ts";
it("perf", async () => {
  let t = performance.now();
  const h = await startShopify({ size: 100_000 });
  const mem = () => Math.round(process.memoryUsage().heapUsed / 1e6) + "MB";
  console.log("start", Math.round(performance.now() - t), mem());
  h.shopify.configure({ throttleProfile: "plus" });
  const q = `query($after: String, $q: String) { productVariants(first: 250, after: $after, query: $q) { pageInfo { hasNextPage endCursor } nodes { id sku price inventoryItem { id tracked inventoryLevels(first: 2) { nodes { quantities(names: ["available"]) { quantity } } } } } } }`;
  t = performance.now();
  let after = null; let n = 0; let pages = 0;
  for (;;) {
    const r = await h.post({ query: q.replace("first: 250", "first: 100"), variables: { after } });
    const b = await r.json();
    if (b.errors) { console.log(JSON.stringify(b.errors)); break; }
    n += b.data.productVariants.nodes.length; pages++;
    if (!b.data.productVariants.pageInfo.hasNextPage || pages >= 100) break;
    after = b.data.productVariants.pageInfo.endCursor;
    h.advanceSeconds(1);
  }
  console.log("100 pages of 100", n, Math.round(performance.now() - t), mem());
  t = performance.now();
  const r2 = await h.post({ query: `{ productVariantsCount(query: "updated_at:>2026-10-20") { count } }` });
  console.log("count filter", JSON.stringify((await r2.json()).data), Math.round(performance.now() - t));
  t = performance.now();
  const r3 = await h.post({ query: `{ productVariants(first: 10, query: "sku:SKU-30000-M") { nodes { id } } }` });
  console.log("sku", JSON.stringify((await r3.json()).data), Math.round(performance.now() - t));
  t = performance.now();
  const r4 = await h.post({ query: `mutation { bulkOperationRunQuery(query: "{ productVariants { edges { node { id sku price inventoryItem { id inventoryLevels { edges { node { id quantities(names: [\\"available\\"]) { name quantity } } } } } } } } }") { bulkOperation { id } userErrors { message } } }` });
  console.log(JSON.stringify(await r4.json()));
  h.advanceSeconds(2);
  const r5 = await h.post({ query: `{ currentBulkOperation { status objectCount fileSize url } }` });
  const b5 = await r5.json();
  console.log("bulk", JSON.stringify(b5.data), Math.round(performance.now() - t), mem());
  await h.close();
}, 120000);
