import { describe, expect, it } from "vitest";
import { createTimeOrderedIds } from "../src/catalog/row-ids.ts";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("createTimeOrderedIds", () => {
  it("answers UUIDv7 texts that start with the time", () => {
    const id = createTimeOrderedIds(() => 0x0190_1234_5678)();
    expect(id).toMatch(UUID_V7);
    expect(id.slice(0, 13)).toBe("01901234-5678");
  });

  it("keeps ids ascending within one millisecond, past the counter's 4,096, and when the clock steps back", () => {
    let ms = 1_800_000_000_000;
    const next = createTimeOrderedIds(() => ms);
    const ids: string[] = [];
    for (let index = 0; index < 10_000; index += 1) ids.push(next());
    ms -= 5;
    ids.push(next(), next());
    expect(ids.every((id) => UUID_V7.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
