/** The sandbox's own clock: real time plus an offset that `POST /__control/clock` can advance. */
export interface SandboxClock {
  now(): Date;
  advance(milliseconds: number): void;
  set(date: Date): void;
}

export function createClock(start?: Date): SandboxClock {
  let offset = start ? start.getTime() - Date.now() : 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(milliseconds) {
      offset += milliseconds;
    },
    set(date) {
      offset = date.getTime() - Date.now();
    },
  };
}
