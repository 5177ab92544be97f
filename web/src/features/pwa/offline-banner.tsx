import { MESSAGES } from "@stockbridge/shared";
import { WifiOff } from "lucide-react";
import { useOnlineStatus } from "../../lib/use-online-status.ts";

/**
 * A banner while the browser is offline; saved lists stay readable from the persisted cache. The
 * live region is always mounted so screen readers announce the banner when it appears.
 */
export function OfflineBanner() {
  const online = useOnlineStatus();
  return (
    <div role="status" aria-live="polite" className="fixed inset-x-0 bottom-0 z-[65]">
      {online ? null : (
        <div className="flex items-center justify-center gap-2 bg-gray-900 px-4 py-2 text-sm text-white">
          <WifiOff className="size-4 shrink-0" aria-hidden="true" />
          <span>{MESSAGES.generic.offline}. Saved lists are still shown.</span>
        </div>
      )}
    </div>
  );
}
