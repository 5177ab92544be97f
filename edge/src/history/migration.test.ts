import { MESSAGES } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { createTestApp, failure, grantSubscription } from "../../testing/helpers.ts";
import { openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { MIGRATIONS } from "../db/migrations/index.ts";

/** A run as versions before migration 21 wrote it: 'completed' whatever its failures. */
async function oldRun(
  db: ReturnType<typeof openDatabase>,
  userId: string,
  run: { id: string; day: number; success: number; failure: number; status: string; error?: string },
) {
  const start = `2026-11-${String(run.day).padStart(2, "0")}T08:00:00.000Z`;
  await db.execute({
    sql: `INSERT INTO execution_history (id, user_id, schedule_id, schedule_name, trigger, start_date, end_date,
            success_count, failure_count, skipped_count, status, error)
          VALUES (?, ?, NULL, NULL, 'manual', ?, ?, ?, ?, 0, ?, ?)`,
    args: [run.id, userId, start, start, run.success, run.failure, run.status, run.error ?? null],
  });
  for (let index = 0; index < run.failure; index += 1) {
    await db.execute({
      sql: `INSERT INTO execution_failures (id, history_id, mapping_id, shopify_sku, acumatica_sku, error)
            VALUES (?, ?, NULL, ?, ?, 'Shopify refused it')`,
      args: [`${run.id}:${index}`, run.id, `SKU-${index}`, `ERP-${index}`],
    });
  }
}

describe("migration 21 (honest run outcomes)", () => {
  it("turns completed runs with failures into partial or failed and leaves the others as they were", async () => {
    const db = openDatabase(":memory:");
    await migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 20),
    );
    // The runs' owner as version 20 stored users; the app (which needs the whole schema) comes after.
    const userId = crypto.randomUUID();
    const at = "2026-11-01T00:00:00.000Z";
    await db.execute({
      sql: `INSERT INTO users (id, name, email, email_normalized, password_hash, password_changed_at, created_at, updated_at)
            VALUES (?, 'Old User', 'old@example.com', 'old@example.com', 'unused', ?, ?, ?)`,
      args: [userId, at, at, at],
    });
    await oldRun(db, userId, { id: "all-ok", day: 1, success: 3, failure: 0, status: "completed" });
    await oldRun(db, userId, { id: "some-failed", day: 2, success: 2, failure: 1, status: "completed" });
    await oldRun(db, userId, { id: "all-failed", day: 3, success: 0, failure: 2, status: "completed" });
    await oldRun(db, userId, {
      id: "stopped",
      day: 4,
      success: 0,
      failure: 0,
      status: "failed",
      error: "Acumatica: the sign-in was refused",
    });

    expect((await migrate(db))[0]).toBe(21);
    // Read through the API as the runs' owner: a new account takes them over.
    const app = await createTestApp({ deps: { db } });
    const { user, token } = await app.registerUser();
    await grantSubscription(db, user._id);
    await db.execute({
      sql: "UPDATE execution_history SET user_id = ? WHERE user_id = ?",
      args: [user._id, userId],
    });
    const api = app.client(token);

    const { histories } = await api.call("executionHistory");
    expect(
      histories.map((entry) => [entry._id, entry.status, entry.successCount, entry.failureCount]),
    ).toEqual([
      ["stopped", "failed", 0, 0],
      ["all-failed", "failed", 0, 2],
      ["some-failed", "partial", 2, 1],
      ["all-ok", "completed", 3, 0],
    ]);
    expect(await api.call("executionHistoryEntry", { params: { id: "some-failed" } })).toMatchObject({
      failedMappings: [
        { mappingId: null, shopifySku: "SKU-0", acumaticaSku: "ERP-0", error: "Shopify refused it" },
      ],
      skippedMappings: [],
      syncOptions: null,
      retryOf: null,
    });
    // What an old run synced was never kept: it cannot be retried alike.
    expect(await failure(api.call("retryExecutionHistory", { params: { id: "some-failed" } }))).toMatchObject(
      {
        status: 400,
        message: MESSAGES.history.retryOptionsUnknown,
      },
    );
  });
});
