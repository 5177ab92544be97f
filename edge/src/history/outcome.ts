import type { ExecutionStatus } from "@stockbridge/shared";

/**
 * A finished run's status from its counts: `completed` only when no item failed, `partial` when
 * some failed and some succeeded, `failed` when none succeeded. Skipped items fail nothing.
 */
export function runStatus(counts: {
  success: number;
  failure: number;
}): Extract<ExecutionStatus, "completed" | "partial" | "failed"> {
  if (counts.failure === 0) return "completed";
  return counts.success > 0 ? "partial" : "failed";
}
