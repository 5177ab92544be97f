import {
  Description,
  DialogBackdrop,
  DialogPanel,
  DialogTitle,
  Dialog as HeadlessDialog,
} from "@headlessui/react";
import { X } from "lucide-react";
import type { ReactNode } from "react";
import { IconButton } from "./button.tsx";
import { cn } from "./cn.ts";

const SIZES = { sm: "max-w-md", md: "max-w-lg", lg: "max-w-2xl", xl: "max-w-4xl" } as const;

export interface DialogProps {
  open: boolean;
  onClose(): void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons, right-aligned at the bottom. */
  footer?: ReactNode;
  size?: keyof typeof SIZES;
  /** Hides the close (X) button, e.g. while a request runs. */
  hideClose?: boolean;
}

/** A modal dialog (Headless UI): focus is trapped, Escape and the backdrop close it. */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  size = "md",
  hideClose,
}: DialogProps) {
  return (
    <HeadlessDialog open={open} onClose={onClose} className="fixed inset-0 z-50">
      <DialogBackdrop
        transition
        className="fixed inset-0 bg-gray-900/40 transition-opacity duration-150 data-closed:opacity-0"
      />
      <div className="fixed inset-0 flex items-center justify-center overflow-y-auto p-4">
        <DialogPanel
          transition
          className={cn(
            "flex max-h-[calc(100vh-2rem)] w-full flex-col rounded-lg bg-white shadow-xl transition duration-150 data-closed:scale-95 data-closed:opacity-0",
            SIZES[size],
          )}
        >
          <div className="flex items-start justify-between gap-4 border-b border-gray-200 px-6 py-4">
            <div>
              <DialogTitle className="text-lg font-semibold text-gray-900">{title}</DialogTitle>
              {description ? (
                <Description className="mt-1 text-sm text-gray-600">{description}</Description>
              ) : null}
            </div>
            {hideClose ? null : (
              <IconButton
                label="Close"
                icon={<X className="size-4" aria-hidden="true" />}
                onClick={onClose}
              />
            )}
          </div>
          {children ? <div className="overflow-y-auto px-6 py-4">{children}</div> : null}
          {footer ? (
            <div className="flex flex-wrap justify-end gap-2 border-t border-gray-200 px-6 py-4">
              {footer}
            </div>
          ) : null}
        </DialogPanel>
      </div>
    </HeadlessDialog>
  );
}
