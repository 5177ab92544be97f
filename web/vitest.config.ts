import { defineProject } from "vitest/config";

// Web unit tests cover pure logic (guards, query keys, table helpers) and the Dexie-backed stores on
// fake-indexeddb, so the node environment is enough; screens are driven in Chromium by e2e/.
export default defineProject({
  test: {
    name: "web",
    include: ["src/**/*.test.ts"],
    environment: "node",
    // Some stores run against a real edge in-process and wait on lasting state (a saved index, a
    // replayed edit): on a loaded 2-core machine that took more than vitest's 5 s default, as the
    // edge project's own tests do.
    testTimeout: 20_000,
    expect: { poll: { timeout: 15_000 } },
  },
});
