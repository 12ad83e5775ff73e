/**
 * The corner report as a table, in the engine's order (most time lost
 * first): the corner that lost most is red and marked with
 * {@linkcode WORST_MARK}; the selected row is inverse, the zoomed one has `*`;
 * when the rows do not all fit, a line says how many are left out above or
 * below.
 *
 * @module
 */
import { Box, Text } from "ink";
import type { CornerReport, CornerReportRow } from "../core/analysis/types.ts";
import { fit, right } from "./format.ts";
import { listWindow, moreText } from "./list_window.ts";

/** After the row of the corner that lost most time. */
export const WORST_MARK = " ◀";

/** Props of {@linkcode CornerTable}. */
export interface CornerTableProps {
  report: CornerReport;
  /** The selected row. */
  selected: number;
  /** The corner the charts are zoomed to, if any (its number). */
  zoomed: number | null;
  width: number;
  /** Lines drawn, the heading included. */
  rows: number;
}

/** Corners by time lost; the worst red and marked, the selected inverse. */
export function CornerTable({ report, selected, zoomed, width, rows }: CornerTableProps) {
  const list = report.corners;
  const nameWidth = Math.max(6, width - 34);
  const line = (
    mark: string,
    name: string,
    d: string,
    time: string,
    ref: string,
    min: string,
    tail: string,
  ) =>
    `${mark} ${fit(name, nameWidth)} ${right(d, 7)} ${right(time, 7)} ${right(ref, 7)} ${
      right(min, 5)
    }${tail}`;
  const heading = line(" ", "Corner", "Δ s", "time", "ref", "min", "");
  if (list.length === 0) {
    return (
      <Box flexDirection="column" width={width}>
        <Text bold wrap="truncate">{heading}</Text>
        <Text color="gray" wrap="truncate">No corners found on this lap.</Text>
      </Box>
    );
  }
  // Rows left out are said (`↓ 2 more`), so a list cut to the table's height does not look whole.
  const shown = listWindow(list, selected, Math.max(1, rows - 1));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate">{heading}</Text>
      {shown.above > 0 ? <MoreLine count={shown.above} up /> : null}
      {shown.rows.map(({ item, at }) => {
        const worst = at === 0 && item.delta_s !== null && item.delta_s > 0;
        const text = line(
          at === selected ? ">" : " ",
          `${item.name}${item.n === zoomed ? " *" : ""}`,
          item.delta_s === null ? "--" : signed(item.delta_s),
          item.time_s.toFixed(3),
          item.ref_time_s === null ? "--" : item.ref_time_s.toFixed(3),
          String(Math.round(item.min_kmh)),
          worst ? WORST_MARK : "",
        );
        return (
          <Text
            key={item.n}
            wrap="truncate"
            inverse={at === selected}
            color={worst ? "red" : deltaColor(item)}
            bold={worst}
          >
            {text}
          </Text>
        );
      })}
      {shown.below > 0 ? <MoreLine count={shown.below} up={false} /> : null}
    </Box>
  );
}

/** A table's line saying how many rows are left out above or below (`↓ 2 more`). */
export function MoreLine({ count, up }: { count: number; up: boolean }) {
  return <Text color="gray" wrap="truncate">{"  " + moreText(count, up)}</Text>;
}

/** Seconds with a sign, to the millisecond (`+0.037`, `-0.120`). */
export function signed(s: number): string {
  return `${s >= 0 ? "+" : ""}${s.toFixed(3)}`;
}

function deltaColor(row: CornerReportRow): string | undefined {
  if (row.delta_s === null || row.delta_s === 0) return undefined;
  return row.delta_s > 0 ? "yellow" : "green";
}
