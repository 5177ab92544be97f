import { type ReactNode, useId } from "react";
import { Button } from "./button.tsx";
import { cn } from "./cn.ts";
import { Dialog, type DialogProps } from "./dialog.tsx";

export interface FormDialogProps
  extends Pick<DialogProps, "open" | "onClose" | "title" | "description" | "size"> {
  /** Called on Enter or the submit button; not called while `busy` or when `canSubmit` is false. */
  onSubmit(): void;
  submitLabel: string;
  canSubmit: boolean;
  /** The save is running: the dialog cannot be closed and the submit button spins. */
  busy: boolean;
  /** Classes for the form element (its layout). */
  className?: string;
  children: ReactNode;
}

/** A dialog holding one form with Cancel / submit buttons; a running save keeps it open. */
export function FormDialog({
  onSubmit,
  submitLabel,
  canSubmit,
  busy,
  className,
  children,
  onClose,
  ...dialog
}: FormDialogProps) {
  const formId = useId();
  return (
    <Dialog
      {...dialog}
      onClose={busy ? () => undefined : onClose}
      hideClose={busy}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={!canSubmit} loading={busy}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className={cn("flex flex-col", className)}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (canSubmit && !busy) onSubmit();
        }}
      >
        {children}
      </form>
    </Dialog>
  );
}
