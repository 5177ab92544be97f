import type { InStatement, Row } from "@libsql/client";
import { HELD_CHANGE_RESULTS, type HeldChange } from "@stockbridge/shared";
import { type Db, withoutMemoryMapFor } from "../db/client.ts";
import type { RunFailure, RunSkip } from "./repo.ts";

export type HeldField = HeldChange["field"];
export type HeldResult = NonNullable<HeldChange["result"]>;

/** One field change of a held plan, with what its write needs. Values: cents, or units for quantities. */
export interface HeldChangeRow {
  mappingId: string;
  shopifySku: string;
  acumaticaSku: string;
  field: HeldField;
  productId: string;
  /** The variant as the mapping stores it (the id the plan read it by). */
  variantId: string;
  inventoryItemId: string | null;
  locationId: string | null;
  locationName: string | null;
  quantityName: "available" | "on_hand" | null;
  /** What Shopify held when the run was planned; null = no compare-at price. */
  from: number | null;
  to: number | null;
}

/** A stored change: its place in the plan, what approving did, and whether its mapping is still there. */
export interface StoredHeldChange extends HeldChangeRow {
  seq: number;
  result: HeldResult | null;
  note: string | null;
  /** The mapping's ERP id, or null when the mapping was deleted or now points at another variant. */
  acumaticaId: string | null;
}

/** A run's counts before any write: mappings already in line, values that cannot be sent, skips. */
export interface PlanCounts {
  id: string;
  userId: string;
  successCount: number;
  failureCount: number;
  skippedCount: number;
}

/** One part of a plan's rows, in plan order: what cannot be sent, what was skipped, the changes. */
export interface PlanRows {
  failures: RunFailure[];
  /** Why mappings were skipped (a held run keeps only their count: none given). */
  skips: RunSkip[];
  changes: HeldChangeRow[];
}

/** How many rows of each kind the parts before this one stored (a part's rows number on from there). */
export interface PlanOffsets {
  failures: number;
  skips: number;
  changes: number;
}

export interface HeldRun extends PlanCounts {
  heldAt: string;
  reasons: string[];
  changeCount: number;
}

/** Rows per INSERT / UPDATE (one JSON parameter each): a 30,000-change plan is 15 statements. */
const CHUNK = 2_000;
/** Mappings' changes per INSERT of plan changes (up to three changes each, more with several locations). */
const GROUP_CHUNK = 700;
/** Rows read per query when the whole plan is loaded to be applied. */
const READ_CHUNK = 5_000;

/**
 * The only SQL of held runs: a run held with its reasons and plan rows, the one claim that lets a
 * plan be applied once, the discard, and the plan read back by pages or whole.
 */
export function createHeldRepo(db: Db) {
  return {
    /**
     * Stores one part of a running run's plan (parts go in plan order, each its own transaction, so
     * a large plan is never built whole); nothing once the entry is no longer running. The plan
     * counts only once `hold` or `storePlan` ends it; until then no reader looks at these rows.
     */
    async storeRows(id: string, rows: PlanRows, from: PlanOffsets): Promise<void> {
      const statements = planRows(id, rows, from);
      if (statements.length > 0)
        await withoutMemoryMapFor(db, planSize(rows), () => db.batch(statements, "write"));
    },

    /**
     * Turns the run's open entry into a held one over the plan its parts stored (storeRows). False
     * when the entry is no longer running (its lease ran out and it was closed as failed).
     */
    async hold(run: HeldRun): Promise<boolean> {
      const result = await db.execute({
        sql: `UPDATE execution_history SET status = 'held', end_date = ?, held_at = ?, held_reasons = ?, held_change_count = ?,
                success_count = ?, failure_count = ?, skipped_count = ?, error = NULL, lease_until = NULL
              WHERE id = ? AND user_id = ? AND status = 'running'`,
        args: [
          run.heldAt,
          run.heldAt,
          JSON.stringify(run.reasons),
          run.changeCount,
          run.successCount,
          run.failureCount,
          run.skippedCount,
          run.id,
          run.userId,
        ],
      });
      return result.rowsAffected > 0;
    },

    /**
     * Ends storing a running run's plan before its writes (a job's checkpoint): the counts of what
     * needed no write, with the failures, skips and changes its parts stored (storeRows), so another
     * instance that resumes the job applies exactly this plan (as an approval applies a held one).
     * Answers false when the entry is no longer running.
     */
    async storePlan(run: PlanCounts): Promise<boolean> {
      const result = await db.execute({
        sql: `UPDATE execution_history SET success_count = ?, failure_count = ?, skipped_count = ?
              WHERE id = ? AND user_id = ? AND status = 'running'`,
        args: [run.successCount, run.failureCount, run.skippedCount, run.id, run.userId],
      });
      return result.rowsAffected > 0;
    },

    /**
     * The plan rows of a running entry, before its plan is stored: an earlier attempt of the run may
     * have stored parts of its plan (or all of it) and stopped before its job's checkpoint said so.
     * The resumed run plans again and stores its plan afresh; its rows take the same numbers.
     */
    discardUnsavedPlan: (id: string): Promise<void> => deletePlanRows(db, id, "running"),

    /**
     * The rows a plan's parts stored for an entry closed (as failed) before the plan was whole:
     * they belong to no plan. The failed entry keeps the failures and skips its closing wrote.
     */
    dropPartialPlan: (id: string): Promise<void> => deletePlanRows(db, id, "failed"),

    /**
     * A finished run's stored plan is no longer needed (a held run keeps its plan as the record).
     * `changes`: how many the plan holds, when known (a large plan is deleted without the memory map).
     */
    async dropPlan(id: string, changes = 0): Promise<void> {
      await withoutMemoryMapFor(db, changes, () =>
        db.execute({
          sql: "DELETE FROM held_changes WHERE history_id = ? AND NOT EXISTS (SELECT 1 FROM execution_history WHERE id = ? AND held_at IS NOT NULL)",
          args: [id, id],
        }),
      );
    },

    /**
     * The one way from held to applying: a single conditional UPDATE, so of any number of parallel
     * approvals (and discards) exactly one gets the run. The entry runs again under a lease, like
     * any run, so a process that stops while applying leaves it failed, not open.
     */
    async claim(userId: string, id: string, at: { decidedAt: string; leaseUntil: string }): Promise<boolean> {
      const result = await db.execute({
        sql: `UPDATE execution_history SET status = 'running', decision = 'approved', decided_at = ?, end_date = NULL, lease_until = ?,
                job_id = NULL
              WHERE id = ? AND user_id = ? AND status = 'held'`,
        args: [at.decidedAt, at.leaseUntil, id, userId],
      });
      return result.rowsAffected > 0;
    },

    /** Gives a claimed run back to review when its apply could not start (a sync was running). */
    async unclaim(userId: string, id: string): Promise<void> {
      await db.execute({
        sql: `UPDATE execution_history SET status = 'held', decision = NULL, decided_at = NULL, end_date = held_at, lease_until = NULL
              WHERE id = ? AND user_id = ? AND status = 'running' AND decision = 'approved' AND job_id IS NULL`,
        args: [id, userId],
      });
    },

    /** The job applying the plan: a job declared dead then ends the entry with it. */
    async attachJob(id: string, jobId: string): Promise<void> {
      await db.execute({ sql: "UPDATE execution_history SET job_id = ? WHERE id = ?", args: [jobId, id] });
    },

    /** Held -> discarded; false when the run is not held (any more). The reasons and plan stay as the record. */
    async discard(userId: string, id: string, decidedAt: string): Promise<boolean> {
      const result = await db.execute({
        sql: `UPDATE execution_history SET status = 'discarded', decision = 'discarded', decided_at = ?
              WHERE id = ? AND user_id = ? AND status = 'held'`,
        args: [decidedAt, id, userId],
      });
      return result.rowsAffected > 0;
    },

    /** One page of the plan, in plan order (the caller has checked the run is the user's). */
    async page(id: string, range: { offset: number; limit: number }): Promise<StoredHeldChange[]> {
      const result = await db.execute({
        sql: `SELECT *, NULL AS acumatica_id FROM held_changes WHERE history_id = ? AND seq >= ? AND seq < ? ORDER BY seq`,
        args: [id, range.offset, range.offset + range.limit],
      });
      return result.rows.map(toChange);
    },

    /** The whole plan of the user's run, each change with its mapping's ERP id if the mapping still feeds that variant. */
    async all(userId: string, id: string): Promise<StoredHeldChange[]> {
      const changes: StoredHeldChange[] = [];
      for (let start = 0; ; start += READ_CHUNK) {
        const result = await db.execute({
          sql: `SELECT c.*, m.acumatica_id FROM held_changes c
                JOIN execution_history h ON h.id = c.history_id AND h.user_id = ?
                LEFT JOIN mappings m ON m.id = c.mapping_id AND m.user_id = h.user_id AND m.shopify_variant_id = c.variant_id
                WHERE c.history_id = ? AND c.seq >= ? AND c.seq < ? ORDER BY c.seq`,
          args: [userId, id, start, start + READ_CHUNK],
        });
        changes.push(...result.rows.map(toChange));
        if (result.rows.length < READ_CHUNK) return changes;
      }
    },

    /** What approving did with each change. */
    async recordResults(
      id: string,
      results: { seq: number; result: HeldResult; note: string | null }[],
    ): Promise<void> {
      const statements = [];
      for (let start = 0; start < results.length; start += CHUNK) {
        const rows = results.slice(start, start + CHUNK).map((r) => ({ q: r.seq, r: r.result, n: r.note }));
        statements.push({
          sql: `WITH j AS MATERIALIZED (SELECT value ->> 'q' AS q, value ->> 'r' AS r, value ->> 'n' AS n FROM json_each(?))
                UPDATE held_changes SET result = j.r, note = j.n FROM j
                WHERE held_changes.history_id = ? AND held_changes.seq = j.q`,
          args: [JSON.stringify(rows), id],
        });
      }
      if (statements.length > 0) await db.batch(statements, "write");
    },
  };
}

export type HeldRepo = ReturnType<typeof createHeldRepo>;

/**
 * Deletes the plan rows stored with an entry while it is in `status`: its changes, the failures
 * numbered as the plan's (`<id>:held:<n>`) and, while it runs, its skips (a failed entry's skips
 * are the ones its closing wrote).
 */
async function deletePlanRows(db: Db, id: string, status: "running" | "failed"): Promise<void> {
  const inStatus = `EXISTS (SELECT 1 FROM execution_history WHERE id = ? AND status = '${status}')`;
  const statements: InStatement[] = [
    { sql: `DELETE FROM held_changes WHERE history_id = ? AND ${inStatus}`, args: [id, id] },
    {
      sql: `DELETE FROM execution_failures WHERE history_id = ? AND substr(id, 1, ?) = ? AND ${inStatus}`,
      args: [id, `${id}:held:`.length, `${id}:held:`, id],
    },
  ];
  if (status === "running")
    statements.push({
      sql: `DELETE FROM execution_skips WHERE history_id = ? AND ${inStatus}`,
      args: [id, id],
    });
  await db.batch(statements, "write");
}

/**
 * The statements that store a part of a plan's failures, skips and changes with the entry, each only
 * while the entry is running.
 */
function planRows(id: string, run: PlanRows, from: PlanOffsets): InStatement[] {
  const statements: InStatement[] = [];
  const guard = `EXISTS (SELECT 1 FROM execution_history WHERE id = ? AND status = 'running')`;
  for (let start = 0; start < run.failures.length; start += CHUNK) {
    const rows = run.failures.slice(start, start + CHUNK).map((failure, index) => ({
      // Apart from the ids the approved run's own failures take (`<id>:<n>`).
      i: `${id}:held:${from.failures + start + index}`,
      m: failure.mappingId,
      s: failure.shopifySku,
      a: failure.acumaticaSku,
      e: failure.error,
    }));
    statements.push({
      sql: `INSERT INTO execution_failures (id, history_id, mapping_id, shopify_sku, acumatica_sku, error)
            SELECT value ->> 'i', ?, value ->> 'm', value ->> 's', value ->> 'a', value ->> 'e' FROM json_each(?) WHERE ${guard}`,
      args: [id, JSON.stringify(rows), id],
    });
  }
  for (let start = 0; start < run.skips.length; start += CHUNK) {
    const rows = run.skips.slice(start, start + CHUNK).map((skip, index) => ({
      q: from.skips + start + index,
      m: skip.mappingId,
      s: skip.shopifySku,
      a: skip.acumaticaSku,
      r: skip.reason,
    }));
    statements.push({
      sql: `INSERT INTO execution_skips (history_id, seq, mapping_id, shopify_sku, acumatica_sku, reason)
            SELECT ?, value ->> 'q', value ->> 'm', value ->> 's', value ->> 'a', value ->> 'r' FROM json_each(?) WHERE ${guard}`,
      args: [id, JSON.stringify(rows), id],
    });
  }
  // One JSON entry per mapping with its changes beneath (ids and SKUs once, not once per field),
  // arrays rather than objects: a statement's text and arguments stay in native memory until the
  // garbage collector finalizes it, and a 100,000-mapping plan sent row by row was ~90 MB of them.
  const groups: unknown[][] = [];
  let last: HeldChangeRow | undefined;
  let entries: unknown[][] = [];
  run.changes.forEach((change, index) => {
    const same =
      last?.mappingId === change.mappingId &&
      last.variantId === change.variantId &&
      last.productId === change.productId &&
      last.shopifySku === change.shopifySku &&
      last.acumaticaSku === change.acumaticaSku;
    if (!same) {
      entries = [];
      groups.push([
        from.changes + index,
        change.mappingId,
        change.shopifySku,
        change.acumaticaSku,
        change.productId,
        change.variantId,
        entries,
      ]);
    }
    entries.push([
      change.field,
      change.inventoryItemId,
      change.locationId,
      change.locationName,
      change.quantityName,
      change.from,
      change.to,
    ]);
    last = change;
  });
  for (let start = 0; start < groups.length; start += GROUP_CHUNK) {
    statements.push({
      sql: `INSERT INTO held_changes (history_id, seq, mapping_id, shopify_sku, acumatica_sku, field, product_id, variant_id,
              inventory_item_id, location_id, location_name, quantity_name, old_value, new_value)
            SELECT ?, (g.value ->> 0) + c.key, g.value ->> 1, g.value ->> 2, g.value ->> 3, c.value ->> 0, g.value ->> 4, g.value ->> 5,
              c.value ->> 1, c.value ->> 2, c.value ->> 3, c.value ->> 4, c.value ->> 5, c.value ->> 6
            FROM json_each(?) AS g, json_each(g.value -> 6) AS c WHERE ${guard}`,
      args: [id, JSON.stringify(groups.slice(start, start + GROUP_CHUNK)), id],
    });
  }
  return statements;
}

/** The rows a part of a plan stores. */
function planSize(rows: PlanRows): number {
  return rows.changes.length + rows.failures.length + rows.skips.length;
}

const FIELDS: readonly HeldField[] = ["price", "compareAtPrice", "quantity"];

function toChange(row: Row): StoredHeldChange {
  const quantityName = text(row.quantity_name);
  return {
    seq: Number(row.seq),
    mappingId: String(row.mapping_id),
    shopifySku: String(row.shopify_sku),
    acumaticaSku: String(row.acumatica_sku),
    field: oneOf(FIELDS, row.field) ?? "price",
    productId: String(row.product_id),
    variantId: String(row.variant_id),
    inventoryItemId: text(row.inventory_item_id),
    locationId: text(row.location_id),
    locationName: text(row.location_name),
    quantityName: quantityName === "on_hand" || quantityName === "available" ? quantityName : null,
    from: row.old_value === null ? null : Number(row.old_value),
    to: row.new_value === null ? null : Number(row.new_value),
    result: oneOf(HELD_CHANGE_RESULTS, row.result),
    note: text(row.note),
    acumaticaId: text(row.acumatica_id),
  };
}

function text(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

/** The stored text when it is one of `values` (the columns only ever hold those), else null. */
function oneOf<T extends string>(values: readonly T[], value: unknown): T | null {
  return values.find((candidate) => candidate === value) ?? null;
}
