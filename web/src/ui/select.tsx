import { ChevronDown } from "lucide-react";
import type { Ref, SelectHTMLAttributes } from "react";
import { cn } from "./cn.ts";
import { controlClass, Field, type FieldFrameProps, splitFieldProps } from "./field.tsx";

export interface SelectOption<V extends string = string> {
  value: V;
  label: string;
  disabled?: boolean;
}

export interface SelectProps<V extends string = string>
  extends Omit<
      SelectHTMLAttributes<HTMLSelectElement>,
      "id" | "className" | "value" | "onChange" | "children"
    >,
    FieldFrameProps {
  options: ReadonlyArray<SelectOption<V>>;
  value: V;
  onChange(value: V): void;
  ref?: Ref<HTMLSelectElement>;
}

/**
 * A labelled native select: the platform's own keyboard and screen-reader behaviour, styled to match.
 * For long searchable lists use a combobox instead.
 */
export function Select<V extends string = string>({
  options,
  value,
  onChange,
  required,
  ...props
}: SelectProps<V>) {
  const { field, rest } = splitFieldProps(props);
  return (
    <Field {...field}>
      {(control) => (
        <div className="relative">
          <select
            {...control}
            required={required}
            value={value}
            onChange={(event) => {
              const chosen = options.find((option) => option.value === event.target.value);
              if (chosen) onChange(chosen.value);
            }}
            className={cn(controlClass, "appearance-none pr-9")}
            {...rest}
          >
            {options.map((option) => (
              <option key={option.value} value={option.value} disabled={option.disabled}>
                {option.label}
              </option>
            ))}
          </select>
          <ChevronDown
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-gray-500"
          />
        </div>
      )}
    </Field>
  );
}
