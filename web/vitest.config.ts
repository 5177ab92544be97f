import { defineProject } from "vitest/config";

// Web unit tests cover pure logic (guards, query keys, table helpers) and the Dexie-backed stores on
// fake-indexeddb, so the node environment is enough; screens are driven in Chromium by e2e/.
export default defineProject({
  test: {
    name: "web",
    include: ["src/**/*.test.ts"],
    environment: "node",
  },
});
