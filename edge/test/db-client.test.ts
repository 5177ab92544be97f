import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Db, openDatabase, tuneLocalDatabase } from "../src/db/client.ts";

let dir: string | undefined;
let db: Db | undefined;
afterEach(async () => {
  db?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  db = undefined;
  dir = undefined;
});

describe("openDatabase on a local file", () => {
  it("keeps tuneLocalDatabase's settings for calls made at the same time (one connection, not one each)", async () => {
    dir = await mkdtemp(join(tmpdir(), "stockbridge-db-"));
    const url = `file:${join(dir, "app.db")}`;
    const client = openDatabase(url);
    db = client;
    await tuneLocalDatabase(client, url);
    const atOnce = async (pragma: string) => {
      const results = await Promise.all(Array.from({ length: 5 }, () => client.execute(`PRAGMA ${pragma}`)));
      return results.map((result) => Object.values(result.rows[0] ?? {})[0]);
    };
    // Without the wait for locks, another process's write makes these calls fail at once.
    expect(await atOnce("busy_timeout")).toEqual([5000, 5000, 5000, 5000, 5000]);
    // 1 = FILE: a pull's swap keeps its temporary rows out of memory.
    expect(await atOnce("temp_store")).toEqual([1, 1, 1, 1, 1]);
    expect(await atOnce("foreign_keys")).toEqual([1, 1, 1, 1, 1]);
  });
});
