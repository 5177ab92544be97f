/** `--json`: the API's data, pretty-printed, and nothing else on stdout. */
export function printJson(stdout: NodeJS.WritableStream, data: unknown): void {
  stdout.write(`${JSON.stringify(data, null, 2)}\n`);
}
