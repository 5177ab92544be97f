import { Box, render, Text, useInput } from "ink";
import { useEffect, useRef, useState } from "react";
import type { CliIo } from "../io.ts";
import { terminalStreams } from "./progress.tsx";

/** One line of input; `mask` hides what is typed (passwords) behind that character. */
export function TextPrompt({
  label,
  mask,
  onSubmit,
}: {
  label: string;
  mask?: string;
  onSubmit(value: string): void;
}) {
  // The ref holds the text between renders: chunks can arrive faster than React re-renders.
  const typed = useRef("");
  const [value, setValue] = useState("");
  const [done, setDone] = useState(false);
  useInput(
    (input, key) => {
      if (key.return) return submit();
      if (key.backspace || key.delete) {
        typed.current = typed.current.slice(0, -1);
      } else if (!key.ctrl && !key.meta && !key.tab && !key.escape && input) {
        // Pasted or fast-typed text arrives as one chunk, possibly with the Enter inside it.
        const end = input.search(/[\r\n]/);
        typed.current += end === -1 ? input : input.slice(0, end);
        if (end !== -1) return submit();
      }
      setValue(typed.current);
    },
    { isActive: !done },
  );
  function submit() {
    setValue(typed.current);
    setDone(true);
  }
  // Answer once the final frame (the line without its cursor) is on screen.
  useEffect(() => {
    if (done) onSubmit(typed.current);
  }, [done, onSubmit]);
  const shown = mask === undefined ? value : mask.repeat(value.length);
  return (
    <Box>
      <Text bold>{label}: </Text>
      <Text>{shown}</Text>
      {done ? null : <Text inverse> </Text>}
    </Box>
  );
}

/**
 * Asks for one line in the terminal and resolves with it; Ctrl+C ends the process as usual. Drawn on
 * stderr, so stdout carries only the command's output (`--json` included).
 */
export async function askLine(io: CliIo, label: string, options: { mask?: string } = {}): Promise<string> {
  let answer = "";
  const instance = render(
    <TextPrompt
      label={label}
      mask={options.mask}
      onSubmit={(value) => {
        answer = value;
        instance.unmount();
      }}
    />,
    { ...terminalStreams(io), stdout: terminalStreams(io).stderr, patchConsole: false },
  );
  await instance.waitUntilExit();
  return answer;
}
