import { Eye, EyeOff } from "lucide-react";
import { useState } from "react";
import { cn } from "./cn.ts";
import { controlClass, Field, splitFieldProps } from "./field.tsx";
import type { TextInputProps } from "./text-input.tsx";

export type PasswordInputProps = Omit<TextInputProps, "type">;

/** A password field with a show/hide toggle ("Show password" / "Hide password"). */
export function PasswordInput({ inputClassName, required, ...props }: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  const { field, rest } = splitFieldProps(props);
  return (
    <Field {...field}>
      {(control) => (
        <div className="relative">
          <input
            {...control}
            type={visible ? "text" : "password"}
            required={required}
            className={cn(controlClass, "pr-11", inputClassName)}
            {...rest}
          />
          <button
            type="button"
            onClick={() => setVisible((shown) => !shown)}
            aria-label={visible ? "Hide password" : "Show password"}
            aria-pressed={visible}
            aria-controls={control.id}
            className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-gray-500 hover:text-gray-800"
          >
            {visible ? (
              <EyeOff className="size-4" aria-hidden="true" />
            ) : (
              <Eye className="size-4" aria-hidden="true" />
            )}
          </button>
        </div>
      )}
    </Field>
  );
}
