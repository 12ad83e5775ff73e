/**
 * How the analysis view shares the terminal: the charts with the track map
 * beside them, then the corner and sector tables side by side, for any size
 * from 80x24 up. Pure: the view and its keys (the cursor steps by a chart
 * column) read the same numbers.
 *
 * @module
 */

/** Cells of a chart's label column, left of the braille. */
export const GUTTER = 8;

/** Rows outside the charts and tables: title, x axis, read-out, keys, and one kept free. */
const FIXED_ROWS = 5;

/** The line of coaching notes under the tables, taken from the charts. */
const NOTES_ROWS = 1;

/** Where everything goes. */
export interface AnalysisLayout {
  /** Width drawn, cells. */
  width: number;
  /** Braille cells of each chart's plot (the gutter not included). */
  chartCols: number;
  /** Rows of the delta, speed, throttle and brake charts. */
  chartRows: [delta: number, speed: number, throttle: number, brake: number];
  /** Cells of the track map, right of the charts, and its rows (those of the charts). */
  mapCols: number;
  mapRows: number;
  /** Rows of the tables (their heading included), and of a lap picker in their place. */
  tableRows: number;
  /** Widths of the corner table and of the sector table, one cell apart. */
  cornerWidth: number;
  sectorWidth: number;
}

/**
 * The layout for a view of `columns` x `rows` (rows the view may use; one
 * stays free). Guarantees for columns >= 80 and rows >= 23: the view's
 * lines are at most `width` = `columns` wide and number at most `rows - 1`.
 */
export function analysisLayout(columns: number, rows: number): AnalysisLayout {
  const width = Math.max(80, Math.floor(columns));
  const avail = Math.max(12, Math.floor(rows) - FIXED_ROWS);
  const tableRows = clamp(Math.round(avail * 0.38), 5, 12);
  const charts = avail - tableRows - NOTES_ROWS;
  const weights = [3, 3, 2, 2];
  const chartRows = weights.map((w) => Math.max(1, Math.floor(charts * w / 10))) as [
    number,
    number,
    number,
    number,
  ];
  chartRows[0] += Math.max(0, charts - chartRows.reduce((a, b) => a + b, 0));
  const mapCols = clamp(Math.round(width * 0.22), 14, 36);
  const cornerWidth = Math.round((width - 1) * 0.62);
  return {
    width,
    chartCols: width - mapCols - 1 - GUTTER,
    chartRows,
    mapCols,
    mapRows: charts,
    tableRows,
    cornerWidth,
    sectorWidth: width - 1 - cornerWidth,
  };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(Math.max(v, lo), hi);
}
