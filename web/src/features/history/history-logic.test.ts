import type { Job } from "@stockbridge/shared";
import { MESSAGES } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import {
  changesNote,
  retryAvailability,
  retryOutcomeToast,
  statusLabel,
  statusTone,
} from "./history-logic.ts";

describe("the status chip", () => {
  it.each([
    ["completed", "Completed", "success"],
    ["partial", "Completed with failures", "error"],
    ["failed", "Failed", "error"],
    ["held", "Held for review", "error"],
    ["running", "running", "primary"],
  ])("reads %s as '%s' in %s style", (status, label, tone) => {
    expect(statusLabel(status)).toBe(label);
    expect(statusTone(status)).toBe(tone);
  });
});

describe("'Retry failed'", () => {
  const options = { price: false, quantity: true };

  it("is offered for finished runs with failures", () => {
    for (const status of ["partial", "failed"] as const)
      expect(retryAvailability({ status, failureCount: 2, syncOptions: options })).toEqual({
        shown: true,
        disabledReason: null,
      });
  });

  it("is hidden while a run runs or is held, and when nothing failed", () => {
    expect(retryAvailability({ status: "running", failureCount: 0, syncOptions: options })).toEqual({
      shown: false,
    });
    expect(retryAvailability({ status: "held", failureCount: 0, syncOptions: options })).toEqual({
      shown: false,
    });
    expect(retryAvailability({ status: "completed", failureCount: 0, syncOptions: options })).toEqual({
      shown: false,
    });
  });

  it("is disabled with its reason for a run recorded before its options were kept", () => {
    const availability = retryAvailability({ status: "partial", failureCount: 1, syncOptions: null });
    expect(availability).toMatchObject({
      shown: true,
      disabledReason: expect.stringContaining("sync options"),
    });
  });

  it("toasts the job's own message, in error style when items failed again", () => {
    const job = (failure: number, message: string | null): Job => ({
      _id: "job-1",
      kind: "sync",
      status: "succeeded",
      progress: { done: 1, total: 1, phase: "Done" },
      message,
      createdAt: "2026-11-21T10:00:00.000Z",
      finishedAt: "2026-11-21T10:00:01.000Z",
      result: {
        dryRun: false,
        historyId: "run-2",
        total: 2,
        success: 2 - failure,
        failure,
        skipped: 0,
        unchanged: 0,
        planned: 0,
        changes: [],
        truncated: false,
      },
    });
    expect(retryOutcomeToast(job(0, MESSAGES.mapping.synchronized))).toEqual({
      tone: "success",
      text: MESSAGES.mapping.synchronized,
    });
    expect(retryOutcomeToast(job(1, "1 of 2 mappings failed; see Execution History"))).toEqual({
      tone: "error",
      text: "1 of 2 mappings failed; see Execution History",
    });
  });
});

describe("a run that read only what changed", () => {
  it("says since when and how many of its mappings it read; nothing for a run that read them all", () => {
    const counts = { successCount: 2, failureCount: 1, skippedCount: 0 };
    expect(
      changesNote({ ...counts, changesSince: { since: "2026-11-24T09:45:00.000Z", mappings: 12_500 } }),
    ).toMatch(
      /^Read only what changed since Nov 2[45], 2026 \d\d:\d\d:00: 3 of 12,500 mappings\. Every mapping is read at least once a day\.$/,
    );
    expect(changesNote(counts)).toBeNull();
  });
});
