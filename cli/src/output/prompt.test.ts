import { render } from "ink-testing-library";
import { createElement } from "react";
import { describe, expect, it, vi } from "vitest";
import { TextPrompt } from "./prompt.tsx";

function prompt(mask?: string) {
  const onSubmit = vi.fn<(value: string) => void>();
  const instance = render(createElement(TextPrompt, { label: "Password", mask, onSubmit }));
  return { ...instance, onSubmit };
}

describe("TextPrompt", () => {
  it("hides a masked answer and submits it on Enter", async () => {
    const { stdin, lastFrame, onSubmit } = prompt("*");
    await vi.waitFor(() => expect(lastFrame()).toContain("Password:"));
    stdin.write("s3cret");
    await vi.waitFor(() => expect(lastFrame()).toContain("******"));
    expect(lastFrame()).not.toContain("s3cret");
    stdin.write("\r");
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledWith("s3cret"));
  });

  it("edits with backspace and takes a pasted line ending in Enter as the answer", async () => {
    const { stdin, lastFrame, onSubmit } = prompt();
    await vi.waitFor(() => expect(lastFrame()).toContain("Password:"));
    stdin.write("ab");
    await vi.waitFor(() => expect(lastFrame()).toContain("ab"));
    stdin.write("\x7f");
    await vi.waitFor(() => expect(lastFrame()).not.toContain("ab"));
    stdin.write("c@example.com\r");
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledWith("ac@example.com"));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });
});
