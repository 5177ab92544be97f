/**
 * Takes turns on the event loop: each `next()` resolves in its own timer callback, one per turn,
 * so the statements of many requests never run back to back. libSQL answers on this thread; with
 * a plain `setTimeout(0)` per step, sixteen requests waiting at once all resumed in the same timer
 * phase, and a health check queued behind all sixteen steps.
 */
export function createTurns() {
  const waiting: (() => void)[] = [];
  let scheduled = false;

  function release(): void {
    const next = waiting.shift();
    if (!next) {
      scheduled = false;
      return;
    }
    next();
    setTimeout(release, 0);
  }

  return {
    /** Resolves when this caller's turn comes: after everything queued on the loop before it. */
    next(): Promise<void> {
      return new Promise((resolve) => {
        waiting.push(resolve);
        if (!scheduled) {
          scheduled = true;
          setTimeout(release, 0);
        }
      });
    },
  };
}

export type Turns = ReturnType<typeof createTurns>;
