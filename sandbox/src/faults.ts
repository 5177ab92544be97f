/** Fault injection shared by the simulators; set per system with `PUT /__control/faults`. */
export interface Faults {
  /** Share (0..1) of calls answered with a transient 5xx. */
  errorRate: number;
  /** Share (0..1) of calls that hang until the client gives up (answered after `timeoutMs`). */
  timeoutRate: number;
  /** Extra latency added to every call, in milliseconds. */
  latencyMs: number;
}

export const NO_FAULTS: Faults = { errorRate: 0, timeoutRate: 0, latencyMs: 0 };

export function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
