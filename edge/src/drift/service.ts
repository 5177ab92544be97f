import {
  DRIFT_CSV_COLUMNS,
  DRIFT_ITEMS_LIMIT,
  type DriftItem,
  type DriftSummary,
  fromCents,
  type Job,
  MESSAGES,
} from "@stockbridge/shared";
import { ConflictError } from "../errors.ts";
import type { RunSyncInput } from "../sync/engine.ts";
import { csvRecord } from "./csv.ts";
import type { DriftRepo, DriftRow } from "./repo.ts";

export interface DriftServiceDeps {
  repo: DriftRepo;
  /** Starts a sync job as `POST /mapping/sync` does (one execution-history run, one sync at a time). */
  startSync(input: Omit<RunSyncInput, "onProgress" | "jobId">): Promise<Job>;
}

/** Rows per read while the CSV streams: a 100,000-row list is a hundred small reads, never one string. */
const CSV_PAGE = 1_000;

const DRIFT_REPLACED = "The drift list was replaced by a newer check while it was read; download it again.";

/** Drift as people read it: the latest check's counts and first rows, the whole list as CSV, and a fix. */
export function createDriftService(deps: DriftServiceDeps) {
  return {
    async summary(userId: string): Promise<DriftSummary> {
      const { check, drifted, byField, items } = await deps.repo.summary(userId, DRIFT_ITEMS_LIMIT);
      return {
        checkedAt: check?.checkedAt ?? null,
        mappings: check?.mappings ?? 0,
        drifted,
        byField,
        fields: check?.fields ?? [],
        source: check?.source ?? null,
        items: items.map(view),
      };
    },

    /**
     * The whole list as CSV, read page by page as the client takes it. The first page is read
     * before the answer starts, so a database that does not answer fails the request, not the file.
     * A newer check replacing the list mid-way ends the stream with an error rather than a file
     * that mixes two checks.
     */
    async csv(userId: string): Promise<ReadableStream<Uint8Array>> {
      const encoder = new TextEncoder();
      let page: Awaited<ReturnType<DriftRepo["page"]>> | null = await deps.repo.page(userId, {
        afterId: 0,
        limit: CSV_PAGE,
      });
      const checkedAt = page.checkedAt;
      let afterId = 0;
      return new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(csvRecord(DRIFT_CSV_COLUMNS)));
        },
        async pull(controller) {
          const current = page ?? (await deps.repo.page(userId, { afterId, limit: CSV_PAGE }));
          page = null;
          if (current.checkedAt !== checkedAt) {
            controller.error(new Error(DRIFT_REPLACED));
            return;
          }
          if (current.rows.length > 0) {
            controller.enqueue(
              encoder.encode(current.rows.map(({ item }) => csvRecord(cells(item))).join("")),
            );
            afterId = current.rows[current.rows.length - 1]!.id;
          }
          if (current.rows.length < CSV_PAGE) controller.close();
        },
      });
    },

    /**
     * A sync of exactly the drifted mappings, of the fields that differ; each mapping it brings in
     * line leaves the list when the run records what remains.
     */
    async fix(userId: string): Promise<Job> {
      const { mappingIds, fields } = await deps.repo.drifted(userId);
      if (mappingIds.length === 0) throw new ConflictError(MESSAGES.drift.nothingToFix);
      return deps.startSync({
        userId,
        scope: { mappingIds },
        syncOptions: {
          price: fields.includes("price") || fields.includes("compareAtPrice"),
          quantity: fields.includes("quantity"),
        },
        trigger: "manual",
      });
    },
  };
}

export type DriftService = ReturnType<typeof createDriftService>;

/** Prices in dollars, quantities in units, as every other answer shows them. */
function view(row: DriftRow): DriftItem {
  const money = row.field !== "quantity";
  const value = (amount: number | null) => (amount === null ? null : money ? fromCents(amount) : amount);
  return {
    mappingId: row.mappingId,
    shopifySku: row.shopifySku,
    acumaticaSku: row.acumaticaSku,
    field: row.field,
    location: row.locationId,
    shopify: value(row.shopify),
    erp: value(row.erp),
  };
}

/** A row's CSV cells: prices with two decimals, an empty cell for none. */
function cells(row: DriftRow): string[] {
  const money = row.field !== "quantity";
  const value = (amount: number | null) =>
    amount === null ? "" : money ? fromCents(amount).toFixed(2) : String(amount);
  return [
    row.mappingId,
    row.shopifySku,
    row.acumaticaSku,
    row.field,
    row.locationId ?? "",
    value(row.shopify),
    value(row.erp),
  ];
}
