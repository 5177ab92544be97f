import type { NotificationKind } from "@stockbridge/shared";
import { AcumaticaError } from "../connectors/acumatica/failures.ts";
import { ShopifyError } from "../connectors/shopify/errors.ts";

export interface RunCountsForAlert {
  successCount: number;
  failureCount: number;
}

/**
 * The alert a finished run deserves, from its final history status and counts, or null when it
 * needs none. Works with the statuses history records today (`completed` even when items failed)
 * and the honest ones (`partial`, `held`): some failed and some succeeded is partial, failures
 * with no success is failed.
 */
export function alertKindForRun(status: string, counts: RunCountsForAlert): NotificationKind | null {
  if (status === "held") return "held";
  if (status === "failed") return "failed";
  if (status === "partial") return counts.successCount > 0 ? "partial" : "failed";
  if (status === "completed" && counts.failureCount > 0)
    return counts.successCount > 0 ? "partial" : "failed";
  return null;
}

/** Failures that mean the system turned the connection itself away (credentials, address, access). */
const SHOPIFY_REFUSALS = new Set<ShopifyError["kind"]>([
  "unauthorized",
  "access-denied",
  "not-found",
  "unreachable",
  "refused",
  "unavailable",
]);
const ACUMATICA_REFUSALS = new Set<AcumaticaError["kind"]>([
  "invalid-credentials",
  "unknown-company",
  "unknown-endpoint",
  "licence-limit",
  "unreachable",
  "refused",
]);

/** Which system refused the connection a run needed, when that is why it stopped; null otherwise. */
export function refusedConnection(cause: unknown): "Shopify" | "Acumatica" | null {
  if (cause instanceof ShopifyError && SHOPIFY_REFUSALS.has(cause.kind)) return "Shopify";
  if (cause instanceof AcumaticaError && ACUMATICA_REFUSALS.has(cause.kind)) return "Acumatica";
  return null;
}
