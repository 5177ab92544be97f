import type { Dashboard, DashboardDay, DashboardRun } from "@stockbridge/shared";
import type { Db } from "../db/client.ts";
import { runBasicsOf } from "../history/repo.ts";
import type { CalendarDay } from "./days.ts";

const FAILED_RUN = "(failure_count > 0 OR status = 'failed')";

/**
 * The dashboard's SQL: each figure one statement on an index of the user's rows (execution history
 * by user and start date, the catalogs' state rows and product index, mappings by user); none
 * reads the whole history.
 */
export function createDashboardRepo(db: Db) {
  return {
    async lastRun(userId: string): Promise<DashboardRun | null> {
      const result = await db.execute({
        sql: `SELECT id, schedule_id, schedule_name, trigger, start_date, end_date, status, success_count, failure_count,
                     skipped_count
              FROM execution_history WHERE user_id = ? ORDER BY start_date DESC, id DESC LIMIT 1`,
        args: [userId],
      });
      const row = result.rows[0];
      return row ? runBasicsOf(row) : null;
    },

    /** Failed runs since each instant, in one statement. */
    async failuresSince(
      userId: string,
      since: { day: string; week: string },
    ): Promise<Dashboard["failures"]> {
      const result = await db.execute({
        sql: `SELECT count(*) AS runs, coalesce(sum(failure_count), 0) AS items,
                     coalesce(sum(start_date >= ?), 0) AS day_runs,
                     coalesce(sum(CASE WHEN start_date >= ? THEN failure_count ELSE 0 END), 0) AS day_items
              FROM execution_history WHERE user_id = ? AND start_date >= ? AND ${FAILED_RUN}`,
        args: [since.day, since.day, userId, since.week],
      });
      const row = result.rows[0];
      return {
        last24Hours: { runs: Number(row?.day_runs ?? 0), items: Number(row?.day_items ?? 0) },
        last7Days: { runs: Number(row?.runs ?? 0), items: Number(row?.items ?? 0) },
      };
    },

    /** Each day's runs and item counts: one index range per day, summed in SQL. */
    async days(userId: string, days: CalendarDay[]): Promise<DashboardDay[]> {
      if (days.length === 0) return [];
      const result = await db.execute({
        sql: `WITH days(date, start, end) AS (VALUES ${days.map(() => "(?, ?, ?)").join(", ")})
              SELECT d.date, count(h.id) AS runs, coalesce(sum(h.success_count), 0) AS successes,
                     coalesce(sum(h.failure_count), 0) AS failures, coalesce(sum(h.skipped_count), 0) AS skipped
              FROM days d LEFT JOIN execution_history h
                ON h.user_id = ? AND h.start_date >= d.start AND h.start_date < d.end
              GROUP BY d.date ORDER BY d.date`,
        args: [...days.flatMap((day) => [day.date, day.start, day.end]), userId],
      });
      return result.rows.map((row) => ({
        date: String(row.date),
        runs: Number(row.runs),
        successes: Number(row.successes),
        failures: Number(row.failures),
        skipped: Number(row.skipped),
      }));
    },

    /** Variants and items from the catalogs' state rows; products from the product index. */
    async catalog(userId: string) {
      const result = await db.execute({
        sql: `SELECT
                (SELECT total FROM catalog_state WHERE user_id = ? AND system = 'shopify') AS variants,
                (SELECT count(DISTINCT product_id) FROM shopify_products WHERE user_id = ?) AS products,
                (SELECT total FROM catalog_state WHERE user_id = ? AND system = 'acumatica') AS items`,
        args: [userId, userId, userId],
      });
      const row = result.rows[0];
      return {
        shopifyProducts: Number(row?.products ?? 0),
        shopifyVariants: Number(row?.variants ?? 0),
        acumaticaItems: Number(row?.items ?? 0),
      };
    },
  };
}

export type DashboardRepo = ReturnType<typeof createDashboardRepo>;
