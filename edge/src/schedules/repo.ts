import type { Row } from "@libsql/client";
import type { Schedule, ScheduleSpec } from "@stockbridge/shared";
import type { Db } from "../db/client.ts";
import { escapeLike } from "../mapping/repo.ts";

/** A schedule as stored, with what a tick needs beyond the API shape. */
export interface ScheduleRecord extends Omit<Schedule, "pausedByPlan"> {
  userId: string;
}

/** A row claimed by a tick; `interruptedAt` is set when the claim took over a dead run's lease. */
export interface ClaimedSchedule extends ScheduleRecord {
  interruptedAt: string | null;
}

export interface ScheduleWrite {
  name: string;
  schedule: ScheduleSpec;
  timezone: string;
  mappingIds: string[];
  isFullSync: boolean;
  syncOptions: { price: boolean; quantity: boolean };
  status: "active" | "inactive";
  nextRun: string | null;
  checkOnly: boolean;
}

export const COLUMNS = `id, user_id, name, type, time, day, interval_hours, minute_interval, timezone, mapping_ids_json,
  is_full_sync, sync_price, sync_quantity, status, last_run, next_run, check_only`;

/** The only SQL for schedules. Every user-facing query filters by user_id. */
export function createSchedulesRepo(db: Db) {
  return {
    async insert(
      userId: string,
      id: string,
      { write, now }: { write: ScheduleWrite; now: string },
    ): Promise<ScheduleRecord> {
      await db.execute({
        sql: `INSERT INTO schedules (id, user_id, name, type, time, day, interval_hours, minute_interval, timezone,
                mapping_ids_json, is_full_sync, sync_price, sync_quantity, status, next_run, created_at, updated_at, check_only)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        args: [
          id,
          userId,
          ...writeArgs(write),
          write.status,
          write.nextRun,
          now,
          now,
          write.checkOnly ? 1 : 0,
        ],
      });
      const created = await this.find(userId, id);
      if (!created) throw new Error(`schedule ${id} vanished right after it was created`);
      return created;
    },

    async update(
      userId: string,
      id: string,
      { write, now }: { write: ScheduleWrite; now: string },
    ): Promise<boolean> {
      const result = await db.execute({
        sql: `UPDATE schedules SET name = ?, type = ?, time = ?, day = ?, interval_hours = ?, minute_interval = ?,
                timezone = ?, mapping_ids_json = ?, is_full_sync = ?, sync_price = ?, sync_quantity = ?,
                status = ?, next_run = ?, updated_at = ?, check_only = ?
              WHERE id = ? AND user_id = ?`,
        args: [...writeArgs(write), write.status, write.nextRun, now, write.checkOnly ? 1 : 0, id, userId],
      });
      return result.rowsAffected > 0;
    },

    async setStatus(
      userId: string,
      id: string,
      { status, nextRun, now }: { status: "active" | "inactive"; nextRun: string | null; now: string },
    ): Promise<boolean> {
      const result = await db.execute({
        sql: "UPDATE schedules SET status = ?, next_run = ?, updated_at = ? WHERE id = ? AND user_id = ?",
        args: [status, nextRun, now, id, userId],
      });
      return result.rowsAffected > 0;
    },

    async remove(userId: string, id: string): Promise<boolean> {
      const result = await db.execute({
        sql: "DELETE FROM schedules WHERE id = ? AND user_id = ?",
        args: [id, userId],
      });
      return result.rowsAffected > 0;
    },

    async find(userId: string, id: string): Promise<ScheduleRecord | null> {
      const result = await db.execute({
        sql: `SELECT ${COLUMNS} FROM schedules WHERE id = ? AND user_id = ?`,
        args: [id, userId],
      });
      const row = result.rows[0];
      return row ? toRecord(row) : null;
    },

    /** Newest first; `search` matches the name (literal text, case-insensitive for ASCII). */
    async page(
      userId: string,
      options: { offset: number; limit: number; search: string },
    ): Promise<{ schedules: ScheduleRecord[]; total: number }> {
      const filter = options.search ? " AND name LIKE ? ESCAPE '\\'" : "";
      const args = options.search ? [userId, `%${escapeLike(options.search)}%`] : [userId];
      const [rows, count] = await db.batch(
        [
          {
            sql: `SELECT ${COLUMNS} FROM schedules WHERE user_id = ?${filter}
                  ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
            args: [...args, options.limit, options.offset],
          },
          { sql: `SELECT COUNT(*) AS total FROM schedules WHERE user_id = ?${filter}`, args },
        ],
        "read",
      );
      return {
        schedules: (rows?.rows ?? []).map(toRecord),
        total: Number(count?.rows[0]?.total ?? 0),
      };
    },

    /** The user's active schedules with a next run, soonest first (schedules_user_next). */
    async activeByNextRun(userId: string, limit: number): Promise<ScheduleRecord[]> {
      const result = await db.execute({
        sql: `SELECT ${COLUMNS} FROM schedules WHERE user_id = ? AND status = 'active' AND next_run IS NOT NULL
              ORDER BY next_run, id LIMIT ?`,
        args: [userId, limit],
      });
      return result.rows.map(toRecord);
    },

    /** Which of `ids` are the user's mappings. */
    async ownedMappingIds(userId: string, ids: string[]): Promise<Set<string>> {
      const owned = new Set<string>();
      const unique = [...new Set(ids)];
      for (let start = 0; start < unique.length; start += 500) {
        const chunk = unique.slice(start, start + 500);
        const result = await db.execute({
          sql: `SELECT id FROM mappings WHERE user_id = ? AND id IN (${chunk.map(() => "?").join(", ")})`,
          args: [userId, ...chunk],
        });
        for (const row of result.rows) owned.add(String(row.id));
      }
      return owned;
    },

    /**
     * Takes over runs whose lease expired (their process stopped), in one UPDATE: the old
     * running_since moves to interrupted_at, and the short lease keeps other ticks off the row
     * while this one records the failure and moves the schedule on.
     */
    async claimInterrupted(owner: string, now: string, leaseUntil: string): Promise<ClaimedSchedule[]> {
      const result = await db.execute({
        sql: `UPDATE schedules SET lease_owner = ?, lease_until = ?, interrupted_at = running_since, running_since = NULL
              WHERE running_since IS NOT NULL AND lease_until < ?
              RETURNING ${COLUMNS}, interrupted_at`,
        args: [owner, leaseUntil, now],
      });
      return result.rows.map(toClaimed);
    },

    /**
     * Claims every due active schedule nobody holds, in one UPDATE (the lease is the lock). A row
     * whose holder died still carries running_since: it comes back with interruptedAt set.
     */
    async claimDue(owner: string, now: string, leaseUntil: string): Promise<ClaimedSchedule[]> {
      const result = await db.execute({
        sql: `UPDATE schedules SET lease_owner = ?, lease_until = ?, interrupted_at = running_since, running_since = ?
              WHERE status = 'active' AND next_run IS NOT NULL AND next_run <= ?
                AND (lease_until IS NULL OR lease_until < ?)
              RETURNING ${COLUMNS}, interrupted_at`,
        args: [owner, leaseUntil, now, now, now],
      });
      return result.rows.map(toClaimed);
    },

    /** Keeps a long run's claim alive; false when the lease was lost. */
    async renewLease(id: string, owner: string, leaseUntil: string): Promise<boolean> {
      const result = await db.execute({
        sql: "UPDATE schedules SET lease_until = ? WHERE id = ? AND lease_owner = ?",
        args: [leaseUntil, id, owner],
      });
      return result.rowsAffected > 0;
    },

    /**
     * Ends a claim: sets lastRun (when a run happened) and the next run, unless the schedule was
     * deactivated meanwhile (then it stays unscheduled), and releases the lease.
     */
    async release(
      id: string,
      owner: string,
      fields: { lastRun: string | null; nextRun: string | null },
    ): Promise<void> {
      await db.execute({
        sql: `UPDATE schedules SET last_run = COALESCE(?, last_run),
                next_run = CASE WHEN status = 'active' THEN ? ELSE NULL END,
                lease_owner = NULL, lease_until = NULL, running_since = NULL, interrupted_at = NULL
              WHERE id = ? AND lease_owner = ?`,
        args: [fields.lastRun, fields.nextRun, id, owner],
      });
    },
  };
}

export type SchedulesRepo = ReturnType<typeof createSchedulesRepo>;

function writeArgs(write: ScheduleWrite) {
  return [
    write.name,
    write.schedule.type,
    write.schedule.time ?? null,
    write.schedule.day ?? null,
    write.schedule.interval ?? null,
    write.schedule.minuteInterval ?? null,
    write.timezone,
    JSON.stringify(write.mappingIds),
    write.isFullSync ? 1 : 0,
    write.syncOptions.price ? 1 : 0,
    write.syncOptions.quantity ? 1 : 0,
  ];
}

export function toRecord(row: Row): ScheduleRecord {
  const ids: unknown = JSON.parse(String(row.mapping_ids_json));
  return {
    _id: String(row.id),
    userId: String(row.user_id),
    name: String(row.name),
    schedule: {
      type: String(row.type) as ScheduleSpec["type"],
      time: row.time === null ? null : String(row.time),
      day: row.day === null ? null : Number(row.day),
      interval: row.interval_hours === null ? null : (Number(row.interval_hours) as ScheduleSpec["interval"]),
      minuteInterval:
        row.minute_interval === null ? null : (Number(row.minute_interval) as ScheduleSpec["minuteInterval"]),
    },
    timezone: String(row.timezone),
    mappingIds: Array.isArray(ids) ? ids.map(String) : [],
    isFullSync: Number(row.is_full_sync) === 1,
    syncOptions: { price: Number(row.sync_price) === 1, quantity: Number(row.sync_quantity) === 1 },
    status: String(row.status) === "active" ? "active" : "inactive",
    lastRun: row.last_run === null ? null : String(row.last_run),
    nextRun: row.next_run === null ? null : String(row.next_run),
    checkOnly: Number(row.check_only) === 1,
  };
}

function toClaimed(row: Row): ClaimedSchedule {
  return {
    ...toRecord(row),
    interruptedAt: row.interrupted_at === null ? null : String(row.interrupted_at),
  };
}
