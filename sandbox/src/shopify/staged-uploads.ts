import type { RequestContext, ShopState } from "./shop-state.ts";

interface StagedUploadInput {
  resource: string;
  filename: string;
  mimeType: string;
  httpMethod?: "POST" | "PUT" | null;
}

/** The largest JSONL file a bulk mutation accepts (100 MB since the "faster bulk operations" change). */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/**
 * `stagedUploadsCreate`: upload targets shaped like Shopify's Google Cloud Storage ones, pointing
 * at the sandbox (`/shopify/{store}/staged-uploads`). The `key` parameter is what
 * `bulkOperationRunMutation(stagedUploadPath:)` takes.
 */
export function stagedUploadsCreate(args: { input: StagedUploadInput[] }, ctx: RequestContext) {
  const base = `${ctx.origin}/shopify/${ctx.shop.storeName}/staged-uploads`;
  const stamp = new Date(ctx.now)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
  const stagedTargets = args.input.map((input) => {
    const folder = input.resource === "BULK_MUTATION_VARIABLES" ? "bulk" : "files";
    const key = `tmp/${ctx.shop.shopId}/${folder}/${crypto.randomUUID()}/${input.filename}`;
    if (input.httpMethod === "PUT") {
      return {
        url: `${base}/${key}?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Date=${stamp}&X-Goog-Signature=sandbox`,
        resourceUrl: `${base}/${key}`,
        parameters: [
          { name: "content_type", value: input.mimeType },
          { name: "acl", value: "private" },
        ],
      };
    }
    return {
      url: `${base}/`,
      resourceUrl: input.resource === "BULK_MUTATION_VARIABLES" ? null : `${base}/${key}`,
      parameters: [
        { name: "key", value: key },
        { name: "Content-Type", value: input.mimeType },
        { name: "success_action_status", value: "201" },
        { name: "acl", value: "private" },
        { name: "policy", value: btoa(JSON.stringify({ conditions: [{ key }], expiration: stamp })) },
        {
          name: "x-goog-credential",
          value: `sandbox-uploads/${stamp.slice(0, 8)}/auto/storage/goog4_request`,
        },
        { name: "x-goog-algorithm", value: "GOOG4-RSA-SHA256" },
        { name: "x-goog-date", value: stamp },
        { name: "x-goog-signature", value: "sandbox" },
      ],
    };
  });
  return { stagedTargets, userErrors: [] };
}

/** Keys the store handed out look like `tmp/{shopId}/…`; anything else is refused as GCS would. */
export function acceptsUploadKey(shop: ShopState, key: string): boolean {
  return key.startsWith(`tmp/${shop.shopId}/`) && !key.includes("..");
}

/** GCS's answer to a form POST with `success_action_status=201`. */
export function postResponseXml(origin: string, storeName: string, key: string): string {
  const location = `${origin}/shopify/${storeName}/staged-uploads/${key}`;
  return `<?xml version='1.0' encoding='UTF-8'?><PostResponse><Location>${escapeXml(location)}</Location><Bucket>shopify-staged-uploads</Bucket><Key>${escapeXml(key)}</Key><ETag>"sandbox"</ETag></PostResponse>`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
