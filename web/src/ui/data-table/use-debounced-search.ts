import { TABLE_SEARCH_DEBOUNCE_MS } from "@stockbridge/shared";
import { useEffect, useRef, useState } from "react";

/** The search box text, and the text applied 500 ms after typing stops (at once on clear). */
export function useDebouncedSearch(onApply: (text: string) => void) {
  const [input, setInput] = useState("");
  const [applied, setApplied] = useState("");
  const onApplyRef = useRef(onApply);
  onApplyRef.current = onApply;

  useEffect(() => {
    const text = input.trim();
    if (text === applied) return;
    const timer = setTimeout(() => {
      setApplied(text);
      onApplyRef.current(text);
    }, TABLE_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input, applied]);

  function clear(): void {
    setInput("");
    if (applied !== "") {
      setApplied("");
      onApplyRef.current("");
    }
  }

  return { input, setInput, applied, clear };
}
