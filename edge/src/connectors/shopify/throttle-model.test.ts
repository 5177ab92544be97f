import { describe, expect, it } from "vitest";
import { createThrottleModel } from "./throttle-model.ts";

describe("the client's picture of Shopify's bucket", () => {
  function model(currentlyAvailable: number) {
    let now = 0;
    const throttle = createThrottleModel(() => now);
    throttle.update({ maximumAvailable: 1_000, currentlyAvailable, restoreRate: 50 });
    return { throttle, advance: (ms: number) => (now += ms) };
  }

  it("waits until a call's cost fits, at the restore rate", () => {
    const { throttle } = model(200);
    expect(throttle.waitFor(100)).toBe(0);
    // 100 points short at 50 a second: 2 s, and a margin.
    expect(throttle.waitFor(300)).toBe(2_025);
  });

  it("lets a call that costs more than the whole bucket go once the bucket is full, instead of waiting forever", () => {
    const { throttle, advance } = model(400);
    expect(throttle.waitFor(1_200)).toBe(12_025);
    advance(12_025);
    expect(throttle.waitFor(1_200)).toBe(0);
  });
});
