import type { CommandContext } from "../context.ts";

export interface Column<Row> {
  header: string;
  value(row: Row): string | number | null | undefined;
  align?: "left" | "right";
}

export interface TableLayout {
  header: string[];
  rows: string[][];
  widths: number[];
  aligns: Array<"left" | "right">;
}

/** Cell texts and column widths; an empty cell reads '-' as on the web screens. */
export function layoutTable<Row>(columns: ReadonlyArray<Column<Row>>, rows: readonly Row[]): TableLayout {
  const header = columns.map((column) => column.header);
  const cells = rows.map((row) => columns.map((column) => cellText(column.value(row))));
  const widths = columns.map((_, index) =>
    Math.max(header[index]?.length ?? 0, ...cells.map((line) => line[index]?.length ?? 0)),
  );
  return { header, rows: cells, widths, aligns: columns.map((column) => column.align ?? "left") };
}

/** One padded line of a layout; columns are two spaces apart. */
export function layoutLine(layout: TableLayout, cells: readonly string[]): string {
  return cells.map((_, index) => padCell(layout, cells, index)).join("  ");
}

/** A cell padded to its column's width; the last column is not padded (no trailing blanks). */
export function padCell(layout: TableLayout, cells: readonly string[], index: number): string {
  const cell = cells[index] ?? "";
  const width = layout.widths[index] ?? cell.length;
  if (layout.aligns[index] === "right") return cell.padStart(width);
  return index === cells.length - 1 ? cell : cell.padEnd(width);
}

/** The plain-text table (no colours) for pipes, files and logs. */
export function formatTable<Row>(columns: ReadonlyArray<Column<Row>>, rows: readonly Row[]): string {
  const layout = layoutTable(columns, rows);
  return [layout.header, ...layout.rows].map((cells) => layoutLine(layout, cells)).join("\n");
}

/** A table on stdout: styled through Ink in a terminal with colours on, plain text otherwise. */
export async function printTable<Row>(
  context: CommandContext,
  columns: ReadonlyArray<Column<Row>>,
  rows: readonly Row[],
): Promise<void> {
  if (context.color) {
    // Ink is loaded only when a person watches: scripts never pay its start-up time.
    const { renderTable } = await import("./table-view.tsx");
    context.out(renderTable(columns, rows));
    return;
  }
  context.out(formatTable(columns, rows));
}

function cellText(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "-";
  const text = String(value).replace(/\s+/g, " ").trim();
  return text === "" ? "-" : text;
}
