import type { InputHTMLAttributes, Ref } from "react";
import { cn } from "./cn.ts";
import { controlClass, Field, type FieldFrameProps, splitFieldProps } from "./field.tsx";

export interface TextInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "className">,
    FieldFrameProps {
  inputClassName?: string;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled text input (type text, email, number, url, time...). */
export function TextInput({ inputClassName, required, ...props }: TextInputProps) {
  const { field, rest } = splitFieldProps(props);
  return (
    <Field {...field}>
      {(control) => (
        <input {...control} required={required} className={cn(controlClass, inputClassName)} {...rest} />
      )}
    </Field>
  );
}
