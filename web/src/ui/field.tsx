import { type ReactNode, useId } from "react";
import { cn } from "./cn.ts";

/** The attributes a control needs to be tied to its label, hint and error. */
export interface FieldControlProps {
  id: string;
  "aria-invalid": boolean | undefined;
  "aria-describedby": string | undefined;
}

export interface FieldProps {
  label: string;
  /** Shown under the control in red; also marks the control aria-invalid. */
  error?: string | undefined;
  hint?: ReactNode;
  /** Keeps the label for screen readers only. */
  hideLabel?: boolean;
  id?: string;
  className?: string;
  children(control: FieldControlProps): ReactNode;
}

/** What a labelled control (TextInput, Select...) hands to its Field; `className` styles the wrapper. */
export type FieldFrameProps = Omit<FieldProps, "children">;

/** Splits a labelled control's props into its Field's and the rest, which go on the control element. */
export function splitFieldProps<P extends FieldFrameProps>({
  label,
  error,
  hint,
  hideLabel,
  id,
  className,
  ...rest
}: P) {
  // An empty id counts as none, so the Field generates one.
  return { field: { label, error, hint, hideLabel, className, ...(id ? { id } : {}) }, rest };
}

/** Label, control, hint and error text, wired with ids (aria-describedby / aria-invalid). */
export function Field({ label, error, hint, hideLabel, id, className, children }: FieldProps) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <label htmlFor={controlId} className={cn("text-sm font-medium text-gray-800", hideLabel && "sr-only")}>
        {label}
      </label>
      {children({ id: controlId, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {hint ? (
        <p id={hintId} className="text-xs text-gray-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Shared look of text-like controls; red ring when invalid. */
export const controlClass =
  "block h-10 w-full rounded-md border-0 bg-white px-3 text-sm text-gray-900 shadow-sm ring-1 ring-gray-300 ring-inset placeholder:text-gray-400 focus-visible:ring-2 focus-visible:ring-accent-600 focus-visible:outline-none disabled:cursor-not-allowed disabled:bg-gray-50 disabled:text-gray-500 aria-invalid:ring-red-500";
