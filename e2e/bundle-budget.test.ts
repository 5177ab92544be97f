import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../scripts/lib.mjs";
import { initialScripts } from "./support/initial-js.ts";

/** Issue #16: a tablet on a shop floor's network opens the app on under 150 KB of gzipped script. */
const BUDGET_BYTES = 150 * 1024;

describe("the built app's initial JavaScript", () => {
  it("stays under 150 KB gzip: screens, the chart and IndexedDB load in their own chunks", () => {
    // The global set-up builds web/dist when a source changed.
    const { files, gzipBytes } = initialScripts(join(ROOT, "web", "dist"));
    expect(files.length).toBeGreaterThan(0);
    expect(files.some((file) => /dexie|browser-storage/.test(file))).toBe(false);
    expect(gzipBytes, `${(gzipBytes / 1024).toFixed(1)} KB gzip in ${files.join(", ")}`).toBeLessThan(
      BUDGET_BYTES,
    );
  });
});
