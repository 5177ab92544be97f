import type { Job } from "@stockbridge/shared";
import { render } from "ink-testing-library";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { ProgressView } from "./progress.tsx";
import { jobState, type ProgressState } from "./progress-state.ts";

const running: ProgressState = {
  phase: "Reading Shopify variants",
  done: 120,
  total: 300,
  status: "running",
  message: null,
};

function view(state: ProgressState) {
  return createElement(ProgressView, { label: "Pulling Shopify products", state });
}

describe("ProgressView", () => {
  it("shows the phase, done of total and a bar filled to the share done", () => {
    const { lastFrame } = render(view(running));
    expect(lastFrame()?.split("\n")).toEqual([
      "Pulling Shopify products Reading Shopify variants",
      `${"█".repeat(12)}${"░".repeat(18)} 120 of 300`,
    ]);
  });

  it("shows a count without a total as 'so far' with an empty bar", () => {
    const { lastFrame } = render(view({ ...running, total: null }));
    expect(lastFrame()).toContain(`${"░".repeat(30)} 120 so far`);
  });

  it("ends with the success message, or the failure's own text", () => {
    const { lastFrame, rerender } = render(view(running));
    rerender(
      view({ ...running, done: 300, status: "succeeded", message: "Products synchronized successfully" }),
    );
    expect(lastFrame()).toBe("✔ Products synchronized successfully");
    rerender(view({ ...running, status: "failed", message: "Shopify answered 401: Invalid API key" }));
    expect(lastFrame()).toBe("✖ Shopify answered 401: Invalid API key");
  });
});

describe("jobState", () => {
  const job: Job = {
    _id: "job-1",
    kind: "auto-map",
    status: "failed",
    progress: { done: 3, total: 10, phase: "Creating mappings" },
    message: null,
    result: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    finishedAt: "2026-01-01T00:00:01.000Z",
  };
  const texts = {
    succeeded: "Auto mapping completed successfully",
    failed: "Failed to perform auto mapping",
  };

  it("uses the catalogue text when a finished job carries no message", () => {
    expect(jobState(job, texts)).toMatchObject({
      status: "failed",
      message: "Failed to perform auto mapping",
    });
  });

  it("keeps a running job's message empty and its progress as reported", () => {
    expect(jobState({ ...job, status: "queued", message: "ignored" }, texts)).toEqual({
      phase: "Creating mappings",
      done: 3,
      total: 10,
      status: "running",
      message: null,
    });
  });
});
