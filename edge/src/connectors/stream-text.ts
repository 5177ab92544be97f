/**
 * Line-by-line reading of a streamed body (Shopify's bulk JSONL), so a 100 MB export is handled
 * one line at a time instead of as one string.
 */
export async function* readLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let pending = "";
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        break;
      }
      pending += decoder.decode(value, { stream: true });
      let start = 0;
      let newline = pending.indexOf("\n", start);
      while (newline !== -1) {
        const line = pending.slice(start, newline).replace(/\r$/, "");
        if (line.trim()) yield line;
        start = newline + 1;
        newline = pending.indexOf("\n", start);
      }
      pending = pending.slice(start);
    }
    pending += decoder.decode();
    if (pending.trim()) yield pending.replace(/\r$/, "");
  } finally {
    // A consumer that stops early must not leave the connection open.
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
