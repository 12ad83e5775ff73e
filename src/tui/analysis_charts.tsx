/**
 * The analysis view's charts over distance (time delta, speed, throttle,
 * brake) with the track map beside them, the x axis and the cursor's
 * read-out. Charts and map are drawn once per data, window and size; a
 * cursor move only redraws one column per chart, the map's marker and the
 * read-out.
 *
 * @module
 */
import { memo, useMemo } from "react";
import { Box, Text } from "ink";
import type { Comparison } from "../core/analysis/types.ts";
import { type BrailleChart, renderChart, valueRange } from "./braille_chart.ts";
import { lineMapCell, renderLineMap, SPOT_MARKER } from "./braille_line_map.ts";
import type { AnalysisLayout } from "./analysis_layout.ts";
import { GUTTER } from "./analysis_layout.ts";
import type { ChartWindow } from "./use_analysis_state.ts";
import { fit, right } from "./format.ts";

/** Colour of the analysed lap's lines. */
export const LAP_COLOR = "cyan";
/** Colour of the reference's lines. */
export const REF_COLOR = "magenta";

/** Least half-height of the delta chart, s, so noise does not fill it. */
const MIN_DELTA_SPAN = 0.05;

/** Props of {@linkcode AnalysisCharts}. */
export interface AnalysisChartsProps {
  comparison: Comparison;
  window: ChartWindow;
  layout: AnalysisLayout;
  /** The cursor's chart column. */
  cursor: number;
  /** The grid point the cursor reads. */
  cursorIndex: number;
}

/** One drawn chart and how to label it. */
interface Drawn {
  name: string;
  scale: string;
  chart: BrailleChart;
}

/** The charts, the map, the axis and the read-out. */
export function AnalysisCharts(props: AnalysisChartsProps) {
  const { comparison, window, layout, cursor, cursorIndex } = props;
  const charts = useMemo(
    () => drawCharts(comparison, window, layout),
    [comparison, window, layout.chartCols, ...layout.chartRows],
  );
  const lap = comparison.laps[0];
  const ref = comparison.laps[1] ?? null;
  return (
    <Box flexDirection="column">
      <Box>
        <Box flexDirection="column" width={GUTTER + layout.chartCols}>
          {charts.map((d) => <ChartBlock key={d.name} drawn={d} cursor={cursor} />)}
        </Box>
        <Box width={1} />
        <TrackMap
          comparison={comparison}
          cols={layout.mapCols}
          rows={layout.mapRows}
          spot={[
            lap.channels.pos_x?.[cursorIndex] ?? NaN,
            lap.channels.pos_z?.[cursorIndex] ?? NaN,
          ]}
        />
      </Box>
      <Text wrap="truncate">{axisLine(window, layout)}</Text>
      <Text wrap="truncate">{readOut(comparison, cursorIndex, ref !== null, layout.width)}</Text>
    </Box>
  );
}

/** The four charts of `comparison` in `window`, sized by `layout`. */
export function drawCharts(
  comparison: Comparison,
  window: ChartWindow,
  layout: AnalysisLayout,
): Drawn[] {
  const x = comparison.distance;
  const [lap, ref] = comparison.laps;
  const pair = (c: string) => [lap.channels[c] ?? null, ref?.channels[c] ?? null];
  const base = { x, cols: layout.chartCols, from: window.from, to: window.to };
  const span = valueRange(x, [lap.delta_s], window.from, window.to);
  const half = Math.max(MIN_DELTA_SPAN, span ? Math.max(-span[0], span[1]) : 0);
  const speed = valueRange(x, pair("speed"), window.from, window.to) ?? [0, 1];
  const [d, s, t, b] = layout.chartRows;
  return [
    {
      name: "delta s",
      scale: `±${half.toFixed(2)}`,
      chart: renderChart({
        ...base,
        series: [lap.delta_s],
        rows: d,
        min: -half,
        max: half,
        baseline: 0,
      }),
    },
    {
      name: "km/h",
      scale: `${Math.floor(speed[0])}-${Math.ceil(speed[1])}`,
      chart: renderChart({ ...base, series: pair("speed"), rows: s, min: speed[0], max: speed[1] }),
    },
    {
      name: "thr %",
      scale: "0-100",
      chart: renderChart({ ...base, series: pair("throttle"), rows: t, min: 0, max: 100 }),
    },
    {
      name: "brk %",
      scale: "0-100",
      chart: renderChart({ ...base, series: pair("brake"), rows: b, min: 0, max: 100 }),
    },
  ];
}

/** One chart: its label column and its rows, the cursor's column drawn inverse. */
const ChartBlock = memo(function ChartBlock({ drawn, cursor }: { drawn: Drawn; cursor: number }) {
  const { chart } = drawn;
  return (
    <Box flexDirection="column">
      {chart.lines.map((line, r) => (
        <Text key={r} wrap="truncate">
          <Text color="gray">
            {r === 0
              ? fit(drawn.name, GUTTER)
              : r === chart.rows - 1
              ? fit(drawn.scale, GUTTER)
              : " ".repeat(GUTTER)}
          </Text>
          {runs(chart, r, line, cursor)}
        </Text>
      ))}
    </Box>
  );
});

/** Row `r` of `chart` as runs of one colour each, the cursor's cell inverse. */
function runs(chart: BrailleChart, r: number, line: string, cursor: number) {
  const out = [];
  let start = 0;
  const colorOf = (c: number) => {
    const o = chart.owners[r * chart.cols + c];
    return c === cursor ? "cursor" : o & 1 ? LAP_COLOR : o & 2 ? REF_COLOR : "gray";
  };
  for (let c = 1; c <= chart.cols; c++) {
    if (c < chart.cols && colorOf(c) === colorOf(start)) continue;
    const color = colorOf(start);
    const text = line.slice(start, c);
    out.push(
      color === "cursor"
        ? <Text key={start} inverse>{text}</Text>
        : <Text key={start} color={color}>{text}</Text>,
    );
    start = c;
  }
  return out;
}

interface TrackMapProps {
  comparison: Comparison;
  cols: number;
  rows: number;
  /** Where the cursor is on the lap, world x and z. */
  spot: [number, number];
}

/** The reference's driven line (the lap's when alone), the cursor's spot marked. */
function TrackMap({ comparison, cols, rows, spot }: TrackMapProps) {
  const map = useMemo(() => {
    const line = comparison.laps[1] ?? comparison.laps[0];
    return renderLineMap(line.channels.pos_x ?? [], line.channels.pos_z ?? [], cols, rows);
  }, [comparison, cols, rows]);
  const cell = lineMapCell(map, spot[0], spot[1]);
  return (
    <Box flexDirection="column">
      {map.lines.map((line, r) =>
        cell && cell.row === r
          ? (
            <Text key={r}>
              <Text color="gray">{line.slice(0, cell.col)}</Text>
              <Text color="yellow">{SPOT_MARKER}</Text>
              <Text color="gray">{line.slice(cell.col + 1)}</Text>
            </Text>
          )
          : <Text key={r} color="gray">{line}</Text>
      )}
    </Box>
  );
}

/** The x axis under the charts: the window's ends in metres, and what it shows. */
export function axisLine(window: ChartWindow, layout: AnalysisLayout): string {
  const from = `${Math.round(window.from)} m`;
  const to = `${Math.round(window.to)} m`;
  const what = window.corner
    ? `${window.corner.name} zoomed (Esc: whole lap)`
    : "whole lap (Enter on a corner zooms)";
  const inner = layout.chartCols - from.length - to.length;
  const middle = inner >= what.length + 2
    ? fit(" ".repeat(Math.floor((inner - what.length) / 2)) + what, inner)
    : " ".repeat(Math.max(1, inner));
  return " ".repeat(GUTTER) + from + middle + to;
}

/** The values at grid point `k`: distance, delta, and each channel of the lap (and the reference). */
export function readOut(comparison: Comparison, k: number, hasRef: boolean, width: number): string {
  const [lap, ref] = comparison.laps;
  const at = comparison.distance[k];
  const pair = (c: string, dp: number) => {
    const a = lap.channels[c]?.[k];
    const b = ref?.channels[c]?.[k];
    const f = (v: number | undefined) =>
      v === undefined || !Number.isFinite(v) ? "-" : v.toFixed(dp);
    return hasRef ? `${f(a)}/${f(b)}` : f(a);
  };
  const delta = lap.delta_s[k];
  const parts = [
    `@${right(String(Math.round(at)), 5)} m`,
    hasRef ? `Δ ${delta >= 0 ? "+" : ""}${delta.toFixed(3)} s` : "",
    `km/h ${pair("speed", 1)}`,
    `thr ${pair("throttle", 0)}`,
    `brk ${pair("brake", 0)}`,
    `gear ${pair("gear", 0)}`,
  ].filter((p) => p !== "");
  return fit(parts.join("  "), width).trimEnd();
}
