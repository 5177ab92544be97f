import { CloudOff } from "lucide-react";
import { Chip } from "../../ui/chip.tsx";

/** On a row an offline edit changed: the server has not answered it yet (it is in the outbox). */
export function PendingChip() {
  return (
    <Chip tone="warning" className="mr-1" icon={<CloudOff className="size-3" aria-hidden="true" />}>
      Pending
    </Chip>
  );
}
