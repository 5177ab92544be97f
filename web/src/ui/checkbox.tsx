import { type ReactNode, useId } from "react";
import { cn } from "./cn.ts";

export interface CheckboxProps {
  label: ReactNode;
  checked: boolean;
  onChange(checked: boolean): void;
  description?: ReactNode;
  disabled?: boolean;
  id?: string;
  name?: string;
  className?: string;
}

/** A native checkbox with its label (and optional description) beside it. */
export function Checkbox({
  label,
  checked,
  onChange,
  description,
  disabled,
  id,
  name,
  className,
}: CheckboxProps) {
  const generated = useId();
  const controlId = id ?? generated;
  const descriptionId = description ? `${controlId}-description` : undefined;
  return (
    <div className={cn("flex items-start gap-3", className)}>
      <input
        id={controlId}
        name={name}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-describedby={descriptionId}
        onChange={(event) => onChange(event.target.checked)}
        className="mt-0.5 size-4 shrink-0 rounded border-gray-300 accent-accent-600 disabled:cursor-not-allowed"
      />
      <div className="text-sm">
        <label htmlFor={controlId} className={cn("font-medium text-gray-800", disabled && "text-gray-400")}>
          {label}
        </label>
        {description ? (
          <p id={descriptionId} className="text-gray-500">
            {description}
          </p>
        ) : null}
      </div>
    </div>
  );
}
