import { Chip } from "../../ui/chip.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { statusLabel, statusTone } from "./history-logic.ts";

/** A run's status: completed green, running blue with a spinner, anything else red. */
export function StatusChip({ status }: { status: string }) {
  const tone = statusTone(status);
  return (
    <Chip tone={tone} icon={status === "running" ? <Spinner size="sm" className="size-3" /> : undefined}>
      {statusLabel(status)}
    </Chip>
  );
}
