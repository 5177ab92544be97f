/**
 * Stripe's plain list filters (`customer`, `subscription`, `status`...): every parameter that was
 * sent must equal the record's field; one that was not sent (undefined) matches every record.
 * The parameters are read once, by the caller, so a bad value fails even when nothing is listed.
 */
export function whereEqual<T>(filters: { [K in keyof T]?: unknown }): (record: T) => boolean {
  const given = (Object.keys(filters) as (keyof T)[]).filter((key) => filters[key] !== undefined);
  return (record) => given.every((key) => record[key] === filters[key]);
}
