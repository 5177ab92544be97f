import { PRODUCT_NAME } from "@stockbridge/shared";
import { type ReactNode, useEffect } from "react";

export interface StatusPanelProps {
  icon: ReactNode;
  /** The screen's h1 (also the document title). */
  title: string;
  children?: ReactNode;
}

/** A centred card for the screens Stripe's checkout returns to (success and cancel). */
export function StatusPanel({ icon, title, children }: StatusPanelProps) {
  useEffect(() => {
    document.title = `${title} · ${PRODUCT_NAME}`;
  }, [title]);
  return (
    <div className="flex justify-center py-8 sm:py-16">
      <section className="flex w-full max-w-lg flex-col items-center rounded-lg bg-white px-6 py-10 text-center shadow-sm ring-1 ring-gray-200 sm:px-10">
        <div className="mb-4">{icon}</div>
        <h1 className="text-2xl font-semibold tracking-tight text-gray-900">{title}</h1>
        {children ? (
          <div className="mt-3 flex flex-col items-center gap-6 text-sm text-gray-600">{children}</div>
        ) : null}
      </section>
    </div>
  );
}
