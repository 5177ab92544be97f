import { MESSAGES } from "@stockbridge/shared";
import { type FormEvent, useMemo, useState } from "react";
import { toast } from "sonner";
import { type Errors, hasErrors, type Touched, touchAll, visibleErrors } from "./form-state.ts";

export interface UseFormOptions<V extends Record<string, string>> {
  initial: V;
  /** All current errors, by field (the shared validate*Form functions fit). */
  validate(values: V): Errors<Extract<keyof V, string>>;
  onSubmit(values: V): void | Promise<void>;
}

/**
 * Form state with the spec's validation timing: per field after it is touched, again on submit;
 * a submit with errors toasts 'Please fix the validation errors' and sends nothing.
 */
export function useForm<V extends Record<string, string>>({
  initial,
  validate,
  onSubmit,
}: UseFormOptions<V>) {
  type F = Extract<keyof V, string>;
  const [values, setValues] = useState<V>(initial);
  const [touched, setTouched] = useState<Touched<F>>({});
  const allErrors = useMemo(() => validate(values), [validate, values]);

  function field(name: F) {
    return {
      name,
      value: values[name],
      error: visibleErrors(allErrors, touched)[name],
      onChange(event: { target: { value: string } }) {
        const value = event.target.value;
        setValues((current) => ({ ...current, [name]: value }));
        setTouched((current) => (current[name] ? current : { ...current, [name]: true }));
      },
      onBlur() {
        setTouched((current) => (current[name] ? current : { ...current, [name]: true }));
      },
    };
  }

  async function handleSubmit(event: FormEvent): Promise<void> {
    event.preventDefault();
    setTouched(touchAll(Object.keys(values) as F[]));
    if (hasErrors(validate(values))) {
      toast.error(MESSAGES.auth.fixValidationErrors, { id: "fix-validation-errors" });
      return;
    }
    await onSubmit(values);
  }

  /** Replaces every value and forgets what was touched (after a save answered, or a fill). */
  function reset(next: V): void {
    setValues(next);
    setTouched({});
  }

  return { values, errors: visibleErrors(allErrors, touched), field, handleSubmit, reset };
}
