/**
 * The per-corner report of a lap against a reference: speeds through each
 * corner's window, where the driver braked for it, and the time its
 * stretch of the lap (braking zone, corner and run out) took on both laps. Each corner is the same stretch of road on both laps:
 * the reference locates the same corner definitions (authored corners, the
 * circuit's map, or the analysed lap's own map) on its own line, so a lap's
 * window through a circuit's corner is the same whichever lap is analysed.
 *
 * @module
 */
import type { Corner } from "../bundle/types.ts";
import { round } from "../laps/sample.ts";
import { resolveAnchors } from "./anchors.ts";
import { authoredCorners } from "./corners_authored.ts";
import { lapCorners, type LocatedCorners } from "./corners.ts";
import type { DetectOptions } from "./corners_detect.ts";
import type { CornerMap } from "./corner_map.ts";
import { stretchBounds } from "./corner_stretches.ts";
import { turnedToStart } from "./lap_rotation.ts";
import { pedalOf } from "./pedals.ts";
import { type LapTrace, locateOne, timeAt, traceOf, valueAt } from "./lap_trace.ts";
import type { AnalysedLap, CornerReport, CornerReportRow, LapCorner, LapCorners } from "./types.ts";

/** Brake pedal share at which braking counts as begun, percent. */
export const BRAKE_THRESHOLD_PCT = 10;

/** A lighter stretch shorter than this inside a braking zone does not end it, metres. */
export const BRAKE_GAP_M = 10;

/** Tuning of the corner report. */
export interface CornerReportOptions {
  /** Brake share that counts as braking, percent (default {@linkcode BRAKE_THRESHOLD_PCT}). */
  brakeThreshold?: number;
  /** Tuning of corner detection, when corners are detected. */
  detect?: Partial<DetectOptions>;
  /**
   * The circuit's corner map (or the maps of its layout driven either way
   * round), used when there are no authored corners the lap passed.
   */
  circuit?: CornerMap | readonly CornerMap[] | null;
}

/**
 * Where the braking zone that leads into a corner began: the distance
 * (interpolated between samples) where the brake first rose to `threshold`
 * in the last braking zone between `from` and `apex`, lighter stretches of
 * under {@linkcode BRAKE_GAP_M} inside the zone included. Null when the lap
 * did not brake there, was still braking for an earlier corner at `from`,
 * or carries no brake channel (pedals.ts: unknown, never guessed).
 */
export function brakingPoint(
  trace: LapTrace,
  from: number,
  apex: number,
  threshold = BRAKE_THRESHOLD_PCT,
): number | null {
  const brake = pedalOf(trace.samples, "brake");
  if (brake === null) return null;
  const d = trace.dist; // trace index k is sample k - 1
  let i = Math.min(locateOne(trace, apex)[0], d.length - 1);
  if (d[i] > apex) i--;
  while (i >= 1 && d[i] >= from && brake[i - 1] < threshold) i--;
  if (i < 1 || d[i] < from) return null;
  // i is the zone's last braking point; walk back to its first.
  let first = i;
  for (let k = i - 1; k >= 1 && d[k] >= from; k--) {
    if (brake[k - 1] >= threshold) first = k;
    else if (d[first] - d[k] >= BRAKE_GAP_M) break;
  }
  const before = first - 1;
  if (before < 1 || d[before] < from) return null;
  const a = brake[before - 1];
  const b = brake[first - 1];
  const f = b > a ? (threshold - a) / (b - a) : 1;
  return d[before] + (d[first] - d[before]) * Math.min(1, Math.max(0, f));
}

/** Lowest speed over [a, b] of the lap, km/h: the ends interpolated, the samples inside as stored. */
export function minSpeed(trace: LapTrace, a: number, b: number): number {
  const speed = trace.samples.speed;
  let low = Math.min(valueAt(trace, speed, a), valueAt(trace, speed, b));
  const d = trace.dist;
  for (let k = locateOne(trace, a)[0]; k < d.length && d[k] < b; k++) {
    if (speed[k - 1] < low) low = speed[k - 1];
  }
  return low;
}

/** A corner's entry, apex and exit on some lap, metres. */
export interface Span {
  entry: number;
  apex: number;
  exit: number;
}

/**
 * Where `corners` (located on a lap of `fromLength` metres) lie on another
 * lap: found by their world positions, or, for a position the other lap did
 * not pass, at the same fraction of its length. When the corners are
 * located from `definitions` (authored corners, a circuit's map), the other
 * lap locates those itself, so each lap's window through a corner is its
 * own and does not depend on which lap is analysed; only a corner it did
 * not pass is carried over as above.
 */
export function spansOn(
  trace: LapTrace,
  corners: readonly LapCorner[],
  fromLength: number,
  definitions: readonly Corner[] | null = null,
): Span[] {
  const own = definitions === null
    ? new Map<number, LapCorner>()
    : new Map(authoredCorners(trace, definitions).map((c) => [c.n, c]));
  const missing = corners.filter((c) => !own.has(c.n));
  const at = resolveAnchors(trace, missing.flatMap((c) => [c.entry, c.apex, c.exit]));
  const scale = trace.length / fromLength;
  let floor = 0;
  let j = -1;
  return corners.map((c) => {
    const mine = own.get(c.n);
    if (mine !== undefined) {
      floor = mine.entry_m;
      return { entry: mine.entry_m, apex: mine.apex_m, exit: mine.exit_m };
    }
    j++;
    const entry = Math.max(floor, at[3 * j] ?? c.entry_m * scale);
    const apex = Math.max(entry, at[3 * j + 1] ?? c.apex_m * scale);
    const exit = Math.max(apex, at[3 * j + 2] ?? c.exit_m * scale);
    floor = entry;
    return { entry, apex, exit };
  });
}

/**
 * Reports `corners` (located on `lap`) against `ref`, or alone when `ref`
 * is null (then every `ref_*` and `delta_s` is null). Rows are sorted by
 * `delta_s` descending, the corner that lost most time first, then by `n`.
 * A corner's time is taken over its stretch of the lap, braking zone and
 * run out included ({@linkcode stretchBounds}), not its window: the
 * stretches tile the lap, so the rows' times add up to the lap's sample
 * duration and their deltas to the lap's. Times are differences of sample
 * time, so `delta_s` is exactly `time_s - ref_time_s` as printed (both to
 * the millisecond).
 */
export function reportCorners(
  lap: LapTrace,
  ref: LapTrace | null,
  corners: LapCorners,
  opts: CornerReportOptions = {},
  definitions: readonly Corner[] | null = null,
): CornerReport {
  return reportWithSpans(lap, ref, corners, opts, definitions).report;
}

/** The stretch of a lap a corner's time is taken over, metres (see corner_stretches.ts). */
export interface Stretch {
  from: number;
  to: number;
}

/**
 * {@linkcode reportCorners}, with each corner's window on the reference
 * (`refSpans[j]` is the window of `corners.corners[j]`, in lap order; null
 * without a reference), for figures of the reference the report leaves out,
 * and the stretch of the lap each corner's `time_s` covers (`stretches[j]`,
 * in lap order; they tile the lap from the line to its end).
 */
export function reportWithSpans(
  lap: LapTrace,
  ref: LapTrace | null,
  corners: LapCorners,
  opts: CornerReportOptions = {},
  definitions: readonly Corner[] | null = null,
): { report: CornerReport; refSpans: Span[] | null; stretches: Stretch[] } {
  const threshold = opts.brakeThreshold ?? BRAKE_THRESHOLD_PCT;
  const list = corners.corners;
  const theirs = ref ? spansOn(ref, list, lap.length, definitions) : null;
  const mine = list.map((c) => ({ entry: c.entry_m, apex: c.apex_m, exit: c.exit_m }));
  const brakes = mine.map((s, j) =>
    brakingPoint(lap, j > 0 ? mine[j - 1].apex : 0, s.apex, threshold)
  );
  const refBrakes = ref && theirs
    ? theirs.map((s, j) => brakingPoint(ref, j > 0 ? theirs[j - 1].apex : 0, s.apex, threshold))
    : null;
  const bounds = stretchBounds(
    { trace: lap, spans: mine, brakes },
    ref && theirs && refBrakes ? { trace: ref, spans: theirs, brakes: refBrakes } : null,
  );
  const rows: CornerReportRow[] = list.map((c, j) => {
    const time = round(timeAt(lap, bounds.a[j + 1]) - timeAt(lap, bounds.a[j]), 3);
    const brake = brakes[j];
    let refTime: number | null = null;
    let refBrake: number | null = null;
    if (ref && theirs && refBrakes && bounds.b) {
      const s = theirs[j];
      refTime = round(timeAt(ref, bounds.b[j + 1]) - timeAt(ref, bounds.b[j]), 3);
      const b = refBrakes[j];
      // The reference's braking point, as the same distance before the apex on this lap.
      if (b !== null) refBrake = round(c.apex_m - (s.apex - b), 1);
    }
    return {
      n: c.n,
      name: c.name,
      direction: c.direction,
      apex_m: round(c.apex_m, 1),
      entry_m: round(c.entry_m, 1),
      exit_m: round(c.exit_m, 1),
      apex: { x: round(c.apex.x, 2), z: round(c.apex.z, 2) },
      entry_kmh: round(valueAt(lap, lap.samples.speed, c.entry_m), 1),
      min_kmh: round(minSpeed(lap, c.entry_m, c.exit_m), 1),
      exit_kmh: round(valueAt(lap, lap.samples.speed, c.exit_m), 1),
      brake_m: brake === null ? null : round(brake, 1),
      ref_brake_m: refBrake,
      time_s: time,
      ref_time_s: refTime,
      delta_s: refTime === null ? null : round(time - refTime, 3),
    };
  });
  rows.sort((a, b) => {
    if (a.delta_s !== b.delta_s) {
      if (a.delta_s === null) return 1;
      if (b.delta_s === null) return -1;
      return b.delta_s - a.delta_s;
    }
    return a.n - b.n;
  });
  const stretches = list.map((_, j) => ({ from: bounds.a[j], to: bounds.a[j + 1] }));
  const report = { source: corners.source, lap_start_m: corners.start_m, corners: rows };
  return { report, refSpans: theirs, stretches };
}

/**
 * The body of `/api/analysis/corners`: `lap`'s corners (the bundle's
 * authored `corners` when given and passed, else the circuit's map
 * `opts.circuit` located on the lap, otherwise detected on `lap`)
 * against `ref` (null for none; turned to start where the lap starts when
 * the two were cut at different places of the loop). Throws BadRequest when a lap has fewer than
 * two samples or covers no distance.
 */
export function cornerReport(
  lap: AnalysedLap,
  ref: AnalysedLap | null,
  authored: readonly Corner[] | null = null,
  opts: CornerReportOptions = {},
): CornerReport {
  const mine = traceOf(lap.samples, `lap ${lap.id}`);
  const located = lapCorners(mine, authored, opts.detect, opts.circuit ?? null);
  const { definitions, map: _map, ...corners } = located;
  const theirs = ref ? refOf(ref, located) : null;
  return reportCorners(mine, theirs, corners, opts, definitions);
}

/**
 * The reference's trace, turned to start where the analysed lap starts on
 * its circuit map's loop when the two were cut at different places
 * (lap_rotation.ts), so both laps' metres run from the same place.
 */
export function refOf(ref: AnalysedLap, lap: LocatedCorners): LapTrace {
  const label = `lap ${ref.id}`;
  return turnedToStart(traceOf(ref.samples, label), lap.start_m, lap.map, label);
}
