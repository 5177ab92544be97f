import { Box, render, Text } from "ink";
import type { CliIo } from "../io.ts";
import { countsText, type ProgressState, progressBar } from "./progress-state.ts";

/** Phase text, done/total and a bar while the work runs; the closing message once it ends. */
export function ProgressView({
  label,
  state,
  color = true,
}: {
  label: string;
  state: ProgressState;
  /** False under NO_COLOR / --no-color: the same view without colours. */
  color?: boolean;
}) {
  const tint = (name: string) => (color ? name : undefined);
  if (state.status !== "running") {
    const ok = state.status === "succeeded";
    return (
      <Text color={tint(ok ? "green" : "red")}>
        {ok ? "✔" : "✖"} {state.message ?? (ok ? "Done" : "Failed")}
      </Text>
    );
  }
  const counts = countsText(state);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold={color}>{label}</Text> <Text color={tint("cyan")}>{state.phase}</Text>
      </Text>
      <Text>
        <Text color={tint("cyan")}>{progressBar(state)}</Text>
        {counts ? ` ${counts}` : ""}
      </Text>
    </Box>
  );
}

export interface ProgressHandle {
  update(state: ProgressState): void;
  /** Shows the closing message and releases the terminal. */
  finish(state: ProgressState): Promise<void>;
  /** Removes the view without a closing message (the error that stopped it is printed instead). */
  close(): Promise<void>;
}

/** Mounts the live progress view on the terminal; only called when stdout is a TTY. */
export function renderProgress(
  io: CliIo,
  { label, initial, color }: { label: string; initial: ProgressState; color: boolean },
): ProgressHandle {
  const streams = terminalStreams(io);
  const view = (state: ProgressState) => <ProgressView label={label} state={state} color={color} />;
  const instance = render(view(initial), {
    ...streams,
    patchConsole: false,
  });
  return {
    update(state) {
      instance.rerender(view(state));
    },
    async finish(state) {
      instance.rerender(view(state));
      instance.unmount();
      await instance.waitUntilExit();
    },
    async close() {
      instance.clear();
      instance.unmount();
      await instance.waitUntilExit();
    },
  };
}

/**
 * Ink wants the process's tty streams. In a terminal `CliIo` holds exactly those (nodeIo); tests that
 * run the program in-process have no TTY and never reach Ink's live renderer.
 */
export function terminalStreams(io: CliIo): {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
} {
  return {
    stdout: io.stdout as NodeJS.WriteStream,
    stderr: io.stderr as NodeJS.WriteStream,
    stdin: io.stdin as NodeJS.ReadStream,
  };
}
