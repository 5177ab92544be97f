import type { InStatement, Row } from "@libsql/client";
import { ACUMATICA_TABLE, SHOPIFY_TABLE } from "../catalog/tables.ts";
import type { Db } from "../db/client.ts";
import { COLUMNS as HISTORY_COLUMNS } from "../history/repo.ts";
import { VIEW_SELECT as MAPPING_VIEW } from "../mapping/repo.ts";
import { COLUMNS as SCHEDULE_COLUMNS } from "../schedules/repo.ts";

export type Feed = "shopify" | "acumatica" | "mappings" | "unmapped" | "schedules" | "history";

/** One page of a feed as stored: changed rows and removed ids, each at its version, merged in order. */
export interface StoredChanges {
  rows: Row[];
  removedIds: string[];
  version: number;
  hasMore: boolean;
  reset: boolean;
  /** The catalog's one lastSynced (catalog feeds only; null before the first pull). */
  lastSynced: string | null;
}

/** Whose deletions a feed reports (tombstone feed names, migration 27). */
const TOMBSTONES: Record<Feed, string[]> = {
  shopify: ["shopify"],
  acumatica: ["acumatica"],
  mappings: ["mappings"],
  unmapped: ["shopify", "acumatica"],
  schedules: ["schedules"],
  history: ["history"],
};

/** A catalog side of the unmapped feed: its rows with whether a mapping uses each. */
function unmappedSide(system: "shopify" | "acumatica"): string {
  const [table, key, mappingKey] =
    system === "shopify"
      ? ["shopify_products", "variant_id", "shopify_variant_id"]
      : ["acumatica_products", "acumatica_id", "acumatica_id"];
  return `SELECT * FROM (SELECT '${system}' AS system, p.id, p.${key} AS external_id, p.sku, p.row_version,
      EXISTS (SELECT 1 FROM mappings m WHERE m.user_id = p.user_id AND m.${mappingKey} = p.${key}) AS mapped
    FROM ${table} p WHERE p.user_id = ? AND p.row_version > ? ORDER BY p.row_version LIMIT ?)`;
}

/** The changed rows of a feed after a version, oldest change first, at most `limit` (all `row_version`). */
function rowsQuery(feed: Feed, page: { userId: string; since: number; limit: number }): InStatement {
  const { userId, since, limit } = page;
  const after = "user_id = ? AND row_version > ? ORDER BY row_version LIMIT ?";
  const args = [userId, since, limit];
  switch (feed) {
    case "shopify":
    case "acumatica": {
      const t = feed === "shopify" ? SHOPIFY_TABLE : ACUMATICA_TABLE;
      return {
        sql: `SELECT p.row_version, p.seq, ${t.listed} AS listed FROM ${t.table} p WHERE p.${after}`,
        args,
      };
    }
    case "mappings":
      return {
        sql: `${MAPPING_VIEW.replace("SELECT ", "SELECT m.row_version, m.created_at, ")}
              WHERE m.user_id = ? AND m.row_version > ? ORDER BY m.row_version LIMIT ?`,
        args,
      };
    case "unmapped":
      return {
        sql: `${unmappedSide("shopify")} UNION ALL ${unmappedSide("acumatica")} ORDER BY row_version LIMIT ?`,
        args: [...args, ...args, limit],
      };
    case "schedules":
      return {
        sql: `SELECT row_version, created_at, rowid AS position, ${SCHEDULE_COLUMNS} FROM schedules WHERE ${after}`,
        args,
      };
    case "history":
      return { sql: `SELECT row_version, ${HISTORY_COLUMNS} FROM execution_history WHERE ${after}`, args };
  }
}

/** The only SQL of the change feeds: one read transaction, so rows, removals and the version agree. */
export function createChangesRepo(db: Db) {
  return {
    async changes(
      feed: Feed,
      userId: string,
      options: { since: number; limit: number },
    ): Promise<StoredChanges> {
      const counter = await db.execute({
        sql: "SELECT version FROM change_versions WHERE user_id = ?",
        args: [userId],
      });
      const current = Number(counter.rows[0]?.version ?? 0);
      // A version this feed never handed out (a database restored or rebuilt): start over from 0.
      const reset = options.since > current;
      const since = reset ? 0 : options.since;
      const feeds = TOMBSTONES[feed];
      const statements: InStatement[] = [
        rowsQuery(feed, { userId, since, limit: options.limit + 1 }),
        {
          sql: `SELECT row_id, version FROM change_tombstones
                WHERE user_id = ? AND feed IN (${feeds.map(() => "?").join(", ")}) AND version > ?
                ORDER BY version LIMIT ?`,
          args: [userId, ...feeds, since, options.limit + 1],
        },
        { sql: "SELECT version FROM change_versions WHERE user_id = ?", args: [userId] },
      ];
      if (feed === "shopify" || feed === "acumatica") {
        statements.push({
          sql: "SELECT last_synced FROM catalog_state WHERE user_id = ? AND system = ?",
          args: [userId, feed],
        });
      }
      const [rows, tombstones, version, state] = await db.batch(statements, "read");
      const merged = [
        ...(rows?.rows ?? []).map((row) => ({ version: Number(row.row_version), row })),
        ...(tombstones?.rows ?? []).map((row) => ({
          version: Number(row.version),
          removed: String(row.row_id),
        })),
      ].sort((a, b) => a.version - b.version);
      const page = merged.slice(0, options.limit);
      const hasMore = merged.length > options.limit;
      const latest = Number(version?.rows[0]?.version ?? 0);
      const lastSynced = state?.rows[0]?.last_synced;
      return {
        rows: page.flatMap((item) => ("row" in item && item.row ? [item.row] : [])),
        removedIds: page.flatMap((item) => ("removed" in item && item.removed ? [item.removed] : [])),
        version: hasMore ? (page.at(-1)?.version ?? since) : Math.max(latest, since),
        hasMore,
        reset,
        lastSynced: lastSynced === undefined || lastSynced === null ? null : String(lastSynced),
      };
    },
  };
}

export type ChangesRepo = ReturnType<typeof createChangesRepo>;
