import { Box, renderToString, Text } from "ink";
import { type Column, layoutLine, layoutTable, padCell } from "./table.ts";

/** A table for the terminal: the same layout as the plain text, header bold, empty cells dimmed. */
export function Table<Row>({ columns, rows }: { columns: ReadonlyArray<Column<Row>>; rows: readonly Row[] }) {
  const layout = layoutTable(columns, rows);
  return (
    <Box flexDirection="column">
      <Text bold>{layoutLine(layout, layout.header)}</Text>
      {layout.rows.map((cells, index) => (
        // Rows have no identity of their own here; their order is the server's.
        // biome-ignore lint/suspicious/noArrayIndexKey: static output, never reordered
        <Text key={index}>
          {cells.map((cell, column) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
            <Text key={column} dimColor={cell === "-"}>
              {column === 0 ? "" : "  "}
              {padCell(layout, cells, column)}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}

/** Rendered once to a string: a table is output, not an app, so nothing stays mounted. */
export function renderTable<Row>(columns: ReadonlyArray<Column<Row>>, rows: readonly Row[]): string {
  // Wide enough never to wrap a row: the terminal wraps long lines itself.
  return renderToString(<Table columns={columns} rows={rows} />, { columns: 1_000 });
}
