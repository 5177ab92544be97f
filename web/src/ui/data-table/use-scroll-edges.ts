import { type RefObject, useEffect, useState } from "react";

/** Whether a sideways-scrolling box has more content hidden past its left and its right edge. */
export interface ScrollEdges {
  before: boolean;
  after: boolean;
  /** The width of the column pinned to the right edge (`[data-pinned]`), which nothing scrolls under. */
  pinnedWidth: number;
}

const NONE: ScrollEdges = { before: false, after: false, pinnedWidth: 0 };

/**
 * Follows a box that scrolls sideways: scrolled, resized, or its content resized (a page of longer
 * rows). A pixel of slack keeps sub-pixel widths from reading as more content.
 */
export function useScrollEdges(ref: RefObject<HTMLElement | null>): ScrollEdges {
  const [edges, setEdges] = useState<ScrollEdges>(NONE);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => {
      const hidden = box.scrollWidth - box.clientWidth;
      const left = Math.abs(box.scrollLeft);
      const pinned = box.querySelector<HTMLElement>("[data-pinned]");
      const next = { before: left > 1, after: hidden - left > 1, pinnedWidth: pinned?.offsetWidth ?? 0 };
      setEdges((current) =>
        current.before === next.before &&
        current.after === next.after &&
        current.pinnedWidth === next.pinnedWidth
          ? current
          : next,
      );
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    // The table inside grows and shrinks with its rows without the box changing size.
    for (const child of box.children) observer.observe(child);
    box.addEventListener("scroll", measure, { passive: true });
    return () => {
      observer.disconnect();
      box.removeEventListener("scroll", measure);
    };
  }, [ref]);
  return edges;
}
