import { useEffect, useRef } from "react";
import { Toaster, type ToastT, toast, useSonner } from "sonner";

export { toast } from "sonner";

/**
 * The one toast outlet (sonner); call `toast.success(...)`, `toast.error(...)`, `toast.warning(...)`.
 * A toast stays while the pointer is on it (sonner does that) or focus is in it (below, as WCAG
 * 2.2.2 asks: a keyboard user on its close button must not lose the text being read), and gets its
 * full time again once focus leaves.
 */
export function AppToaster() {
  const { toasts } = useSonner();
  const outlet = useRef<HTMLDivElement>(null);
  const latest = useRef(toasts);
  latest.current = toasts;
  // While focus is inside: the toasts held, with the duration each had (undefined: the default).
  const held = useRef<Map<ToastT["id"], number | undefined> | null>(null);

  // A toast that arrives while focus is inside is held too.
  useEffect(() => {
    if (held.current) holdAll(held.current, toasts);
  }, [toasts]);

  useEffect(() => {
    const element = outlet.current;
    if (!element) return;
    const focusIn = () => {
      if (held.current) return;
      held.current = new Map();
      holdAll(held.current, latest.current);
    };
    const focusOut = (event: FocusEvent) => {
      if (!held.current || (event.relatedTarget instanceof Node && element.contains(event.relatedTarget)))
        return;
      const active = new Map(latest.current.map((item) => [item.id, item]));
      for (const [id, duration] of held.current) {
        const item = active.get(id);
        if (item) reissue(item, duration);
      }
      held.current = null;
    };
    element.addEventListener("focusin", focusIn);
    element.addEventListener("focusout", focusOut);
    return () => {
      element.removeEventListener("focusin", focusIn);
      element.removeEventListener("focusout", focusOut);
    };
  }, []);

  return (
    <div ref={outlet} className="contents">
      {/* Bottom right, so a toast never covers a page title or the drawer's header; lifted above the
          offline banner while it shows (--offline-banner-height, features/pwa/offline-banner.tsx). */}
      <Toaster
        position="bottom-right"
        offset={{ bottom: "calc(24px + var(--offline-banner-height, 0px))" }}
        mobileOffset={{ bottom: "calc(16px + var(--offline-banner-height, 0px))" }}
        richColors
        closeButton
        duration={5_000}
      />
    </div>
  );
}

function holdAll(held: Map<ToastT["id"], number | undefined>, active: readonly ToastT[]) {
  for (const item of active) {
    if (item.type === "loading" || held.has(item.id)) continue;
    held.set(item.id, item.duration);
    reissue(item, Number.POSITIVE_INFINITY);
  }
}

/**
 * Shows the same toast again under its id with another duration: sonner updates it in place and
 * restarts its timer from the new duration (Infinity: no timer; undefined: the Toaster's).
 */
function reissue(item: ToastT, duration: number | undefined) {
  const show =
    item.type === "success"
      ? toast.success
      : item.type === "error"
        ? toast.error
        : item.type === "warning"
          ? toast.warning
          : item.type === "info"
            ? toast.info
            : toast.message;
  show(item.title, { id: item.id, duration });
}
