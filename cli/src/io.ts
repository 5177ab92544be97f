import { homedir } from "node:os";

/** The process around a run: streams, environment and home folder, injected so tests run it in-process. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
  homeDir: string;
  /** The clock (ms since epoch) that decides when a session token is due for refresh; Date.now by default. */
  now?: () => number;
  /** Calls `handler` on Ctrl+C until the returned function is called; without it Ctrl+C ends the process. */
  onInterrupt?: (handler: () => void) => () => void;
}

export function nodeIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    homeDir: homedir(),
    now: Date.now,
    onInterrupt(handler) {
      process.on("SIGINT", handler);
      return () => process.off("SIGINT", handler);
    },
  };
}

/** Reads stdin to its end (`--password-stdin`). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: string[] = [];
  stream.setEncoding("utf8");
  for await (const chunk of stream) chunks.push(String(chunk));
  return chunks.join("");
}
