import type { ExecutionHistory } from "@stockbridge/shared";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useApi } from "../../lib/services-context.tsx";
import { executionHistoryEntryQuery } from "./queries.ts";

/** Reads the run an address names (`?entry=`) and hands it to `open` once it arrives. */
export function useLinkedEntry(entryId: string | undefined, open: (entry: ExecutionHistory) => void): void {
  const api = useApi();
  const linked = useQuery({ ...executionHistoryEntryQuery(api, entryId ?? ""), enabled: Boolean(entryId) });
  const entry = entryId ? linked.data : undefined;
  // The latest callback, so a new one each render does not open the dialog again.
  const latest = useRef(open);
  latest.current = open;
  useEffect(() => {
    if (entry) latest.current(entry);
  }, [entry]);
}
