/**
 * Yields the objects of one array property (`"StorageDetails": [ {...}, ... ]`) of a streamed JSON
 * answer, or of the answer itself when `property` is null (`[ {...}, ... ]`), one parsed object at
 * a time. Acumatica's inquiries return every row of a 100,000-item catalog in one answer; parsing
 * it whole would hold hundreds of megabytes at once. An answer that is not a list (property null)
 * throws a SyntaxError.
 */
export async function* streamArrayItems(
  body: ReadableStream<Uint8Array>,
  property: string | null,
): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const opening =
    property === null
      ? /^\s*\[/
      : new RegExp(`"${property.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"\\s*:\\s*\\[`);
  let text = "";
  let inArray = false;
  // Scan state inside the array, kept across chunks.
  let position = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let itemStart = -1;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (!inArray) {
        const match = opening.exec(text);
        if (!match) {
          if (property === null && text.trim() !== "")
            throw new SyntaxError("The answer is not a JSON list.");
          continue;
        }
        inArray = true;
        text = text.slice(match.index + match[0].length);
        position = 0;
      }
      for (; position < text.length; position += 1) {
        const char = text[position];
        if (inString) {
          if (escaped) escaped = false;
          else if (char === "\\") escaped = true;
          else if (char === '"') inString = false;
          continue;
        }
        if (char === '"') inString = true;
        else if (char === "{" || char === "[") {
          if (depth === 0) itemStart = position;
          depth += 1;
        } else if (char === "}" || char === "]") {
          if (depth === 0) return; // the array's own closing bracket
          depth -= 1;
          if (depth === 0) {
            yield JSON.parse(text.slice(itemStart, position + 1));
            itemStart = -1;
          }
        }
      }
      // Keep only the unfinished item (or nothing between items).
      const keep = itemStart === -1 ? text.length : itemStart;
      text = text.slice(keep);
      position -= keep;
      if (itemStart !== -1) itemStart = 0;
    }
    if (!inArray) {
      if (property === null) throw new SyntaxError("The answer is not a JSON list.");
      return;
    }
    // A TypeError, like the one fetch throws for a dropped connection: callers retry it the same way.
    throw new TypeError(
      property === null
        ? "The answer ended inside its list."
        : `The answer ended inside the "${property}" list.`,
    );
  } finally {
    // Whatever follows the list (or a consumer that stopped early) is not read.
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
