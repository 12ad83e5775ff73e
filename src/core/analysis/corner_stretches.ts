/**
 * The stretch of a lap each corner's time is taken over. A corner's window
 * (entry to exit) is only where the line bends, and how much of the road it
 * covers depends on the path it was found on: a clean reference line's bend
 * starts late and sharp, a driven lap's averaged line early and soft. Time
 * is lost mostly outside it: braking early costs time in the braking zone
 * before the bend, a lift on the exit costs it down the straight after. So
 * the stretches tile the lap instead: each corner's runs from where the
 * previous corner's run out ends (where braking for this corner begins) to
 * where its own run out ends, the first from the line, the last to the
 * line. Whatever corners a lap is analysed by (its own, a circuit's map
 * from a reference line or a best lap, a bundle's), a loss then falls in
 * the corner where it was made, whole, and the corners' times add up to
 * the lap's.
 *
 * @module
 */
import type { LapTrace } from "./lap_trace.ts";

/** A corner's entry, apex and exit on one lap, metres. */
export interface CornerWindow {
  entry: number;
  apex: number;
  exit: number;
}

/**
 * One lap's corners as the stretches need them: the lap, each corner's
 * window on it, and where it began braking for each (null when it did not).
 */
export interface BrakedSpans {
  trace: LapTrace;
  spans: readonly CornerWindow[];
  brakes: readonly (number | null)[];
}

/**
 * Where each corner's stretch begins on each lap (`bounds[j]` for corner
 * `j`, and `bounds[n]` the line at the lap's end), for the corners of `a`
 * and, when comparing, the same corners on `b` (corner `j` of both is the
 * same corner). Between two corners the bound is where braking for the
 * second began, on the lap that began first; when neither lap braked
 * there, the earlier of the two laps' points halfway from the first
 * corner's exit to the second's entry. One lap's point is found on the
 * other at the same fraction of its length, as the time delta reads laps:
 * so both laps' stretches are the same road, a corner's loss is what the
 * delta climbs across its stretch, and position noise, an offset line, a
 * hole or a slow sample rate cannot move a bound (distance is integrated
 * from speed). Bounds never leave the stretch between the two apexes, and
 * never fall. Symmetric: swapping `a` and `b` swaps the answers.
 */
export function stretchBounds(
  a: BrakedSpans,
  b: BrakedSpans | null,
): { a: number[]; b: number[] | null } {
  const braked = a.spans.map((_, j) =>
    a.brakes[j] !== null || (b !== null && b.brakes[j] !== null)
  );
  const pa = points(a, braked);
  if (b === null) return { a: bounds(a, pa), b: null };
  const scale = b.trace.length / a.trace.length;
  const pb = points(b, braked);
  // The earlier of the two laps' points, in a's metres.
  const chosen = pa.map((p, j) => {
    const q = pb[j] === null ? null : pb[j]! / scale;
    return p === null ? q : Math.min(p, q ?? p);
  });
  return { a: bounds(a, chosen), b: bounds(b, chosen.map((p) => p === null ? null : p * scale)) };
}

/**
 * Each corner's own candidate for the bound before it on lap `l`: where `l`
 * began braking for it when either lap braked there (null when `l` did
 * not), else halfway from the previous corner's exit to its entry; null
 * before the first corner.
 */
function points(l: BrakedSpans, braked: readonly boolean[]): (number | null)[] {
  return l.spans.map((s, j) => {
    if (j === 0) return null;
    return braked[j] ? l.brakes[j] : (l.spans[j - 1].exit + s.entry) / 2;
  });
}

/** The bounds of lap `l` from each corner's chosen point (see {@linkcode stretchBounds}). */
function bounds(l: BrakedSpans, at: readonly (number | null)[]): number[] {
  const out = [0];
  for (let j = 1; j < l.spans.length; j++) {
    const prev = l.spans[j - 1].apex;
    const apex = l.spans[j].apex;
    const p = at[j] ?? (l.spans[j - 1].exit + l.spans[j].entry) / 2;
    out.push(Math.max(out[j - 1], Math.min(apex, Math.max(prev, p))));
  }
  out.push(Math.max(l.trace.length, out[out.length - 1]));
  return out;
}
