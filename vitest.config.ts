import { defineConfig } from "vitest/config";

// One vitest run covers every package; each package is a project so `--project` can pick one.
export default defineConfig({
  test: {
    projects: [
      { test: { name: "shared", include: ["shared/src/**/*.test.ts"] } },
      { test: { name: "edge", include: ["edge/src/**/*.test.ts"], testTimeout: 20_000 } },
      { test: { name: "sandbox", include: ["sandbox/src/**/*.test.ts"], testTimeout: 30_000 } },
      "web/vitest.config.{ts,mts}",
      {
        test: {
          name: "browser",
          include: ["e2e/**/*.test.ts"],
          globalSetup: ["e2e/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // expect.poll waits on lasting state like every Playwright wait here, so it gets the same
          // bound as they do (page.setDefaultTimeout) instead of vitest's 1 s, which made each
          // poll a timed assertion that a loaded machine could miss.
          expect: { poll: { timeout: 10_000 } },
        },
      },
      {
        test: {
          name: "cli",
          include: ["cli/src/**/*.test.ts"],
          // The CLI tests run the built CLI: build-setup builds it first when its sources changed.
          globalSetup: ["cli/testing/build-setup.ts", "cli/testing/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
