import { ACCESS_GRANTING_STATUSES } from "./constants.ts";

/** Only an active or trialing subscription grants the gated features. */
export function grantsAccess(status: string | null | undefined): boolean {
  return (ACCESS_GRANTING_STATUSES as readonly string[]).includes(status ?? "");
}
