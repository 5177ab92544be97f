/** One RFC 4180 record: a field with a comma, quote or line break is quoted, its quotes doubled; CRLF ends it. */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.map((field) => (/[",\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field)).join(",")}\r\n`;
}
