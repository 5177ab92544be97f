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
      {/* On a touch screen the box is tapped through this label: a 44 px square around it, its
          negative margins keeping the layout of the 16 px box. */}
      <label className="mt-0.5 flex shrink-0 items-center justify-center pointer-coarse:-mx-3.5 pointer-coarse:-mt-3 pointer-coarse:-mb-3.5 pointer-coarse:size-11">
        <input
          id={controlId}
          name={name}
          type="checkbox"
          checked={checked}
          disabled={disabled}
          aria-describedby={descriptionId}
          onChange={(event) => onChange(event.target.checked)}
          className="size-4 rounded border-gray-300 accent-accent-600 disabled:cursor-not-allowed"
        />
      </label>
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
