import { useEffect, useRef, useState } from "react";
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
  const [focusHold] = useState(() => createFocusHold(() => outlet.current));

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs whenever the toasts change
  useEffect(() => focusHold.follow(), [focusHold, toasts]);

  useEffect(() => {
    const element = outlet.current;
    if (!element) return;
    const focusIn = () => focusHold.focusIn();
    const focusOut = (event: FocusEvent) => focusHold.focusOut(event.relatedTarget);
    element.addEventListener("focusin", focusIn);
    element.addEventListener("focusout", focusOut);
    return () => {
      element.removeEventListener("focusin", focusIn);
      element.removeEventListener("focusout", focusOut);
    };
  }, [focusHold]);

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

/**
 * Holds the toasts while focus is in one of them, and gives each its full time again once focus
 * leaves. Only toasts sonner still shows are held or released (`toast.getToasts()`): a toast closed
 * with its button (focus on it) is dismissed before its element goes, and focus leaving with it must
 * not show it again.
 */
function createFocusHold(outlet: () => HTMLElement | null) {
  // While focus is inside: the toasts held, with the duration each had (undefined: the default).
  let held: Map<ToastT["id"], number | undefined> | null = null;
  const shown = () => toast.getToasts().filter((item): item is ToastT => !("dismiss" in item));

  function hold() {
    if (!held) return;
    for (const item of shown()) {
      if (item.type === "loading" || held.has(item.id)) continue;
      held.set(item.id, item.duration);
      reissue(item, Number.POSITIVE_INFINITY);
    }
  }

  return {
    /** Called as sonner's toasts change: one that arrives while focus is inside is held too. */
    follow: hold,
    focusIn() {
      if (held) return;
      held = new Map();
      hold();
    },
    focusOut(next: EventTarget | null) {
      const element = outlet();
      if (!held || (next instanceof Node && element?.contains(next))) return;
      const wereHeld = held;
      held = null;
      for (const item of shown()) if (wereHeld.has(item.id)) reissue(item, wereHeld.get(item.id));
    },
  };
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
