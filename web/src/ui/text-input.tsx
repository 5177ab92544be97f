import type { InputHTMLAttributes, ReactNode, Ref } from "react";
import { cn } from "./cn.ts";
import { controlClass, Field } from "./field.tsx";

export interface TextInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id"> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  hideLabel?: boolean;
  id?: string;
  /** Class of the wrapping field. */
  className?: string;
  inputClassName?: string;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled text input (type text, email, number, url, time...). */
export function TextInput({
  label,
  error,
  hint,
  hideLabel,
  id,
  className,
  inputClassName,
  required,
  ...rest
}: TextInputProps) {
  return (
    <Field
      label={label}
      error={error}
      hint={hint}
      hideLabel={hideLabel}
      className={className}
      {...(id ? { id } : {})}
    >
      {(control) => (
        <input {...control} required={required} className={cn(controlClass, inputClassName)} {...rest} />
      )}
    </Field>
  );
}
