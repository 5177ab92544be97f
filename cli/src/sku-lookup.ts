import type { CommandContext } from "./context.ts";
import { CliError } from "./errors.ts";
import { everyPage } from "./options.ts";

/**
 * The one Shopify variant or ERP item with exactly this SKU, from the pulled catalogs (the API
 * searches "SKU contains"; every page of matches is read). None, or more than one (auto mapping
 * skips duplicated SKUs for the same reason), is an error naming the SKU.
 */
export async function findBySku(
  context: CommandContext,
  system: "shopify" | "acumatica",
  sku: string,
): Promise<string> {
  const { rows } = await everyPage({}, async ({ page, limit }) => {
    const query = { search: sku, page, limit };
    if (system === "shopify") {
      const data = await context.api.call("shopifyProducts", { query });
      const rows = data.products.map((product) => ({ sku: product.sku, id: product.variantId }));
      return { rows, total: data.total, totalPages: data.totalPages };
    }
    const data = await context.api.call("acumaticaProducts", { query });
    const rows = data.products.map((product) => ({ sku: product.sku, id: product.acumaticaId }));
    return { rows, total: data.total, totalPages: data.totalPages };
  });
  const exact = rows.filter((row) => row.sku === sku);
  const name = system === "shopify" ? "Shopify" : "Acumatica";
  if (exact.length === 0) {
    throw new CliError(
      `No ${name} item has SKU "${sku}" (pull the catalog with \`stockbridge products pull ${system}\`).`,
      {
        code: "NOT_FOUND",
      },
    );
  }
  if (exact.length > 1) {
    throw new CliError(`SKU "${sku}" appears ${exact.length} times in ${name}: it cannot name one item.`, {
      code: "CONFLICT",
    });
  }
  return exact[0]?.id ?? "";
}
