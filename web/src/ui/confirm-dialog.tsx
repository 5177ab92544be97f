import { matchesTypedConfirmation } from "@stockbridge/shared";
import { type ReactNode, useEffect, useState } from "react";
import { Button } from "./button.tsx";
import { Dialog } from "./dialog.tsx";
import { TextInput } from "./text-input.tsx";

export interface ConfirmDialogProps {
  open: boolean;
  onClose(): void;
  onConfirm(): void | Promise<void>;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** "danger" for deletes. */
  tone?: "danger" | "primary";
  /** Typed confirmation: the confirm button stays disabled until this exact text is typed. */
  requiredText?: string;
  /** The confirm action is running (spinner, buttons disabled). */
  loading?: boolean;
}

/** "Are you sure?" with an optional typed confirmation ('Type "{name}" to confirm'). */
export function ConfirmDialog({
  open,
  onClose,
  onConfirm,
  title,
  message,
  confirmLabel = "Confirm",
  cancelLabel = "Cancel",
  tone = "danger",
  requiredText,
  loading = false,
}: ConfirmDialogProps) {
  const [typed, setTyped] = useState("");
  useEffect(() => {
    if (open) setTyped("");
  }, [open]);
  const confirmed = requiredText === undefined || matchesTypedConfirmation(typed, requiredText);
  return (
    <Dialog
      open={open}
      onClose={loading ? () => undefined : onClose}
      title={title}
      size="sm"
      hideClose={loading}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={loading}>
            {cancelLabel}
          </Button>
          <Button
            variant={tone === "danger" ? "danger" : "primary"}
            onClick={() => void onConfirm()}
            disabled={!confirmed}
            loading={loading}
          >
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4 text-sm text-gray-700">
        <div>{message}</div>
        {requiredText !== undefined ? (
          <TextInput
            label={`Type "${requiredText}" to confirm`}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        ) : null}
      </div>
    </Dialog>
  );
}
