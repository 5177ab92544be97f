import { sleep } from "../faults.ts";
import { AcumaticaError, serverError } from "./errors.ts";
import type { AcumaticaSettings } from "./settings.ts";

export interface FaultCounters {
  errors: number;
  timeouts: number;
}

/**
 * Transient failures for retry logic: added latency on every call, hangs that answer only after
 * `timeoutMs` (or when the client goes away), and 5xx answers: IIS's 503 page while the app pool
 * recycles, or a 500 SQL deadlock. All of them are safe to retry.
 */
export async function injectFaults(
  settings: AcumaticaSettings,
  counters: FaultCounters,
  signal?: AbortSignal,
): Promise<AcumaticaError | undefined> {
  if (settings.latencyMs > 0) await sleep(settings.latencyMs);
  if (settings.timeoutRate > 0 && Math.random() < settings.timeoutRate) {
    counters.timeouts += 1;
    await sleepUnlessAborted(settings.timeoutMs, signal);
    return serverError(
      "Execution Timeout Expired. The timeout period elapsed prior to completion of the operation or the server is not responding.",
      "System.Data.SqlClient.SqlException",
    );
  }
  if (settings.errorRate > 0 && Math.random() < settings.errorRate) {
    counters.errors += 1;
    if (Math.random() < 0.5) {
      return new AcumaticaError(
        503,
        null,
        "<!DOCTYPE html><html><head><title>Service Unavailable</title></head><body><h2>Service Unavailable</h2><hr><p>HTTP Error 503. The service is unavailable.</p></body></html>",
      );
    }
    return serverError(
      "Transaction (Process ID 71) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction.",
      "System.Data.SqlClient.SqlException",
    );
  }
  return undefined;
}

function sleepUnlessAborted(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, milliseconds);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
