import { MESSAGES } from "@stockbridge/shared";
import { WifiOff } from "lucide-react";
import { useEffect, useRef } from "react";
import { useOnlineStatus } from "../../lib/use-online-status.ts";

/** The banner's height while it shows; the sidebar, the drawer, the page and the toasts end above it. */
const HEIGHT_VARIABLE = "--offline-banner-height";

/**
 * A banner while the browser is offline; saved lists stay readable from the persisted cache. The
 * live region is always mounted so screen readers announce the banner when it appears.
 */
export function OfflineBanner() {
  const online = useOnlineStatus();
  const banner = useRef<HTMLDivElement>(null);

  // The banner overlays the bottom of the screen: what sits there (the Logout entry) moves up by its
  // height, measured since it wraps on narrow screens.
  useEffect(() => {
    const element = banner.current;
    const root = document.documentElement.style;
    if (online || !element) {
      root.removeProperty(HEIGHT_VARIABLE);
      return;
    }
    const observer = new ResizeObserver(() => root.setProperty(HEIGHT_VARIABLE, `${element.offsetHeight}px`));
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.removeProperty(HEIGHT_VARIABLE);
    };
  }, [online]);

  return (
    <div role="status" aria-live="polite" className="fixed inset-x-0 bottom-0 z-[65]">
      {online ? null : (
        <div
          ref={banner}
          className="flex items-center justify-center gap-2 bg-gray-900 px-4 py-2 text-sm text-white"
        >
          <WifiOff className="size-4 shrink-0" aria-hidden="true" />
          <span>{MESSAGES.generic.offline}. Saved lists are still shown.</span>
        </div>
      )}
    </div>
  );
}
