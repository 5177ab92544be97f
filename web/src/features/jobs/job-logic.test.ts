import type { Job } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { isJobFinished, jobCountsText, jobFailureMessage, jobPercent } from "./job-logic.ts";

function job(patch: Partial<Job> = {}): Job {
  return {
    _id: "job-1",
    kind: "shopify-pull",
    status: "running",
    progress: { done: 0, total: null, phase: "Reading Shopify variants" },
    message: null,
    result: null,
    createdAt: "2026-10-01T09:00:00.000Z",
    finishedAt: null,
    ...patch,
  };
}

describe("isJobFinished", () => {
  it("is true only for succeeded and failed jobs", () => {
    expect(isJobFinished(job({ status: "queued" }))).toBe(false);
    expect(isJobFinished(job({ status: "running" }))).toBe(false);
    expect(isJobFinished(job({ status: "succeeded" }))).toBe(true);
    expect(isJobFinished(job({ status: "failed" }))).toBe(true);
    expect(isJobFinished(undefined)).toBe(false);
  });
});

describe("jobPercent", () => {
  it("is done over total once the total is known", () => {
    expect(jobPercent(job({ progress: { done: 30, total: 120, phase: "x" } }))).toBe(25);
  });

  it("is undefined (an indeterminate bar) without a total", () => {
    expect(jobPercent(job({ progress: { done: 30, total: null, phase: "x" } }))).toBeUndefined();
    expect(jobPercent(job({ progress: { done: 0, total: 0, phase: "x" } }))).toBeUndefined();
  });

  it("never passes 100 and is 100 once the job succeeded", () => {
    expect(jobPercent(job({ progress: { done: 130, total: 120, phase: "x" } }))).toBe(100);
    expect(jobPercent(job({ status: "succeeded", progress: { done: 0, total: null, phase: "x" } }))).toBe(
      100,
    );
  });
});

describe("jobCountsText", () => {
  it("reads 'done of total', 'done so far', or nothing before the first count", () => {
    expect(jobCountsText({ done: 1200, total: 3000, phase: "x" })).toBe("1,200 of 3,000");
    expect(jobCountsText({ done: 40, total: null, phase: "x" })).toBe("40 so far");
    expect(jobCountsText({ done: 0, total: null, phase: "x" })).toBe("");
  });
});

describe("jobFailureMessage", () => {
  it("prefers the job's own message and falls back to the catalogue text", () => {
    expect(jobFailureMessage(job({ message: "Shopify said no" }), "Failed to sync Shopify products")).toBe(
      "Shopify said no",
    );
    expect(jobFailureMessage(job({ message: null }), "Failed to sync Shopify products")).toBe(
      "Failed to sync Shopify products",
    );
    expect(jobFailureMessage(job({ message: "  " }), "Failed to sync Shopify products")).toBe(
      "Failed to sync Shopify products",
    );
  });
});
