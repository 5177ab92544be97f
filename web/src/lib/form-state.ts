/** Live validation: a field's error shows once the field was touched (changed or left), and all on submit. */
export type Touched<F extends string> = Partial<Record<F, boolean>>;
export type Errors<F extends string> = Partial<Record<F, string>>;

export function visibleErrors<F extends string>(errors: Errors<F>, touched: Touched<F>): Errors<F> {
  const shown: Errors<F> = {};
  for (const [field, message] of Object.entries(errors) as [F, string | undefined][]) {
    if (message && touched[field]) shown[field] = message;
  }
  return shown;
}

export function touchAll<F extends string>(fields: readonly F[]): Touched<F> {
  const touched: Touched<F> = {};
  for (const field of fields) touched[field] = true;
  return touched;
}

export function hasErrors<F extends string>(errors: Errors<F>): boolean {
  return Object.values(errors).some(Boolean);
}
