/**
 * The analysis view's state and keys: which lap against which reference
 * (the default, a lap another view opened, or one picked from a list), their
 * analysis read in the background, the cursor, the zoom on a corner and the
 * selected corner. The view only draws what this returns.
 *
 * @module
 */
import { useMemo, useState } from "react";
import type { Key } from "ink";
import type { CornerReportRow } from "../core/analysis/types.ts";
import type { ViewMessage, ViewProps } from "./view_types.ts";
import { useLatestState } from "./use_latest_state.ts";
import { useLoad } from "./use_load.ts";
import { clamp } from "./list_selection.ts";
import {
  type AnalysisChoice,
  type AnalysisData,
  chooseDefault,
  chooseFor,
  loadAnalysis,
} from "./analysis_data.ts";
import { analysisLayout } from "./analysis_layout.ts";
import { columnX } from "./braille_chart.ts";
import { useBusVersion } from "./use_bus_version.ts";
import { useKeys } from "./use_keys.ts";

/** Columns the cursor moves with Shift or `[` `]`. */
export const BIG_STEP = 10;

/** A share of a corner's length shown each side of it when zoomed, at least {@linkcode ZOOM_PAD_M}. */
const ZOOM_PAD = 0.25;

/** Least metres shown each side of a corner when zoomed. */
export const ZOOM_PAD_M = 30;

/** The stretch of lap the charts show, in the reference's metres. */
export interface ChartWindow {
  from: number;
  to: number;
  /** The corner zoomed to; null for the whole lap. */
  corner: CornerReportRow | null;
}

/** A list a lap is picked from. */
export interface Picker {
  /** What Enter sets. */
  kind: "lap" | "ref";
  /** The highlighted row of the choice's laps. */
  index: number;
}

/** What the analysis view draws. */
export interface AnalysisState {
  /** Undefined while the first choice loads; null when there is no complete lap. */
  choice: AnalysisChoice | null | undefined;
  /** The analysis of `choice`; null while it loads. */
  data: AnalysisData | null;
  window: ChartWindow;
  /** The cursor's chart column, 0 to the layout's chartCols - 1. */
  cursor: number;
  /** The grid point the cursor reads (index into `data.comparison.distance`); -1 without data. */
  cursorIndex: number;
  /** The selected row of the corner report. */
  cornerIndex: number;
  picker: Picker | null;
  message: ViewMessage | null;
}

/** The keys the lap picker reads. */
type PickerKeys = Pick<Key, "upArrow" | "downArrow" | "escape" | "return">;

/**
 * What key `k` does while `picker` is open over `choice`'s laps: the
 * picker after it (the same object when the key does nothing, null when
 * it closes), and the pair of laps chosen, if one was. Picking the other
 * lap of the pair swaps them.
 */
function pickerKey(
  picker: Picker,
  choice: AnalysisChoice | null | undefined,
  k: PickerKeys,
): { picker: Picker | null; want: { lap: number; ref: number | null } | null } {
  const laps = choice?.laps ?? [];
  if (k.upArrow || k.downArrow) {
    const step = k.upArrow ? -1 : 1;
    return {
      picker: { ...picker, index: clamp(picker.index + step, 0, laps.length - 1) },
      want: null,
    };
  }
  if (k.escape) return { picker: null, want: null };
  if (k.return && choice && laps[picker.index]) {
    const picked = laps[picker.index].id;
    const lap = choice.lap.id;
    const ref = choice.ref?.id ?? null;
    const want = picker.kind === "lap"
      ? { lap: picked, ref: picked === ref ? lap : ref }
      : { lap: picked === lap && ref !== null ? ref : lap, ref: picked };
    return { picker: null, want };
  }
  return { picker, want: null };
}

/** A lap another view asked the analysis view to open (see ViewProps.param). */
function paramPair(param: ViewProps["param"]): { lap: number; ref: number | null } | null {
  const lap = param?.lap;
  if (typeof lap !== "number") return null;
  const ref = param?.ref;
  return { lap, ref: typeof ref === "number" ? ref : null };
}

/** The analysis view's state over `app`, answering its keys while `inputActive`. */
export function useAnalysisState(
  { app, columns, rows, inputActive, param }: Pick<
    ViewProps,
    "app" | "columns" | "rows" | "inputActive" | "param"
  >,
): AnalysisState {
  const layout = analysisLayout(columns, rows);
  const version = useBusVersion(app, ["lap", "session"]);
  // A lap asked for (by another view or a picker) pins the choice; without one the view follows
  // the newest lap as laps are stored.
  const [want, setWant] = useState(() => paramPair(param));
  const [choice, setChoice] = useState<AnalysisChoice | null | undefined>(undefined);
  const [loaded, setLoaded] = useState<{ key: string; data: AnalysisData } | null>(null);
  const [zoom, setZoom] = useState<CornerReportRow | null>(null);
  const [cursor, setCursor] = useState(0);
  // Read back by the key handler, so every key of a burst moves from where the last one left.
  const cornerAt = useLatestState(0);
  const pickerNow = useLatestState<Picker | null>(null);
  const cornerIndex = cornerAt.value;
  const picker = pickerNow.value;
  const [message, setMessage] = useState<ViewMessage | null>(null);

  useLoad(
    () => want ? chooseFor(app, want.lap, want.ref) : chooseDefault(app),
    [app, want, want ? -1 : version],
    setChoice,
    (err) => setMessage({ text: `cannot choose laps: ${err.message}`, error: true }),
  );

  // The circuit's name is part of the key: naming the session brings its sectors.
  const key = choice ? `${choice.lap.id}:${choice.ref?.id ?? ""}:${choice.lap.track}` : "";
  useLoad(
    () => choice ? loadAnalysis(app, choice).then((data) => ({ key, data })) : null,
    [app, key],
    (next) => {
      setLoaded(next);
      setZoom(null);
      setCursor(0);
      cornerAt.set(0);
    },
    (err) => setMessage({ text: `cannot analyse lap: ${err.message}`, error: true }),
  );
  const data = loaded?.key === key && choice ? loaded.data : null;

  const distance = data?.comparison.distance;
  const length = distance && distance.length > 0 ? distance[distance.length - 1] : 0;
  const window = useMemo(() => windowOf(zoom, length), [zoom, length]);
  const cols = layout.chartCols;
  const col = clamp(cursor, 0, cols - 1);
  const cursorIndex = distance ? nearest(distance, columnX(window.from, window.to, cols, col)) : -1;
  const corners = data?.corners.corners ?? [];

  const zoomTo = (next: CornerReportRow | null) => {
    const at = distance ? distance[cursorIndex] : 0;
    const w = windowOf(next, length);
    // The cursor keeps its place when it is in the new window, else goes to the corner's apex.
    const target = next && !(at >= w.from && at <= w.to) ? next.apex_m : at;
    setCursor(Math.floor((target - w.from) / Math.max(1e-9, w.to - w.from) * cols));
    setZoom(next);
  };

  useKeys((input, k) => {
    const picker = pickerNow.get();
    if (picker) {
      const next = pickerKey(picker, choice, k);
      if (next.want) setWant(next.want);
      if (next.picker !== picker) pickerNow.set(next.picker);
      if (next.want) setMessage(null);
      return;
    }
    if (input === "l" || input === "r") {
      if (!choice || choice.laps.length === 0) return;
      const current = input === "l" ? choice.lap.id : choice.ref?.id;
      pickerNow.set({
        kind: input === "l" ? "lap" : "ref",
        index: Math.max(0, choice.laps.findIndex((l) => l.id === current)),
      });
      return;
    }
    if (!data) return;
    if (k.leftArrow || k.rightArrow || input === "[" || input === "]") {
      const sign = k.leftArrow || input === "[" ? -1 : 1;
      const size = k.shift || input === "[" || input === "]" ? BIG_STEP : 1;
      setCursor((c) => clamp(clamp(c, 0, cols - 1) + sign * size, 0, cols - 1));
    } else if (k.upArrow || k.downArrow) {
      cornerAt.set(clamp(cornerAt.get() + (k.upArrow ? -1 : 1), 0, corners.length - 1));
    } else if (k.return && corners[cornerAt.get()]) {
      zoomTo(corners[cornerAt.get()]);
    } else if (k.escape && zoom) {
      zoomTo(null);
    }
  }, { isActive: inputActive });

  return {
    choice,
    data,
    window,
    cursor: col,
    cursorIndex,
    cornerIndex: clamp(cornerIndex, 0, corners.length - 1),
    picker,
    message,
  };
}

/** The charts' window: the whole lap, or `corner` from entry to exit with room each side. */
export function windowOf(corner: CornerReportRow | null, length: number): ChartWindow {
  if (!corner) return { from: 0, to: length, corner: null };
  const pad = Math.max(ZOOM_PAD_M, (corner.exit_m - corner.entry_m) * ZOOM_PAD);
  return {
    from: Math.max(0, corner.entry_m - pad),
    to: Math.min(length, corner.exit_m + pad),
    corner,
  };
}

/** Index of the value of ascending `xs` nearest `at` (the lower on a tie). */
export function nearest(xs: readonly number[], at: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < at) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && at - xs[lo - 1] <= xs[lo] - at ? lo - 1 : lo;
}
