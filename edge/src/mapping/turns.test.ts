import { describe, expect, it } from "vitest";
import { createTurns } from "./turns.ts";

describe("createTurns", () => {
  it("lets a callback queued on the loop run between two waiting steps, never after all of them", async () => {
    const turns = createTurns();
    const order: string[] = [];
    const steps = [1, 2, 3].map((step) => turns.next().then(() => order.push(`step ${step}`)));
    setTimeout(() => order.push("another request"), 0);

    await Promise.all(steps);
    expect(order).toEqual(["step 1", "another request", "step 2", "step 3"]);
  });

  it("answers every caller, in the order they asked, and again after the queue ran dry", async () => {
    const turns = createTurns();
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((n) => turns.next().then(() => order.push(n))));
    await turns.next();
    await Promise.all([5, 6].map((n) => turns.next().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
