import { afterEach } from "vitest";

/**
 * Called at a test file's top level: registers an afterEach that runs what the finished test left
 * to clean up, newest first, even when it failed. Answers the function that adds a cleanup, for
 * the per-test starters of the harnesses (a test may start more than one sandbox).
 */
export function cleanupAfterEach(): (cleanup: () => Promise<void>) => void {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return (cleanup) => {
    cleanups.push(cleanup);
  };
}
