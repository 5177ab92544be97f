import { type ReactNode, useId } from "react";
import { cn } from "./cn.ts";

export interface CardProps {
  title?: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  /** Exposes the card as a region named by its title (screen-reader landmark, test locator). */
  region?: boolean;
}

/** A white panel with an optional title row. */
export function Card({ title, actions, children, className, region = false }: CardProps) {
  const titleId = useId();
  const labelled = region && Boolean(title);
  return (
    <section
      aria-labelledby={labelled ? titleId : undefined}
      className={cn("rounded-lg bg-white shadow-sm ring-1 ring-gray-200", className)}
    >
      {title || actions ? (
        <div className="flex items-center justify-between gap-4 border-b border-gray-200 px-5 py-4">
          {title ? (
            <h2 id={titleId} className="text-base font-semibold text-gray-900">
              {title}
            </h2>
          ) : (
            <span />
          )}
          {actions}
        </div>
      ) : null}
      <div className="p-5">{children}</div>
    </section>
  );
}
