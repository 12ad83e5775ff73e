/**
 * Plain text tables for the listing commands: a header row and one row per
 * item, columns padded to their widest cell.
 *
 * @module
 */

/** One column: its heading, and whether its cells line up on the right (numbers). */
export interface Column {
  heading: string;
  right?: boolean;
}

/**
 * The lines of a table of `rows` under `columns`, two spaces between
 * columns, trailing spaces trimmed. A row with fewer cells than columns is
 * padded with empty cells.
 */
export function formatTable(columns: readonly Column[], rows: readonly string[][]): string[] {
  const widths = columns.map((c, i) =>
    Math.max([...c.heading].length, ...rows.map((r) => [...(r[i] ?? "")].length))
  );
  const line = (cells: readonly string[]) =>
    columns.map((c, i) => {
      const cell = cells[i] ?? "";
      const pad = " ".repeat(widths[i] - [...cell].length);
      return c.right ? pad + cell : cell + pad;
    }).join("  ").trimEnd();
  return [line(columns.map((c) => c.heading)), ...rows.map(line)];
}
