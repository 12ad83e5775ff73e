/**
 * Authored corners (SPEC 2.1.5) located on one lap: each lap finds where it
 * passed the corner's apex, entry and exit anchors; a corner without an
 * entry or exit gets the default window around its apex.
 *
 * @module
 */
import type { Corner, Side } from "../bundle/types.ts";
import { type LineProfile, lineProfile, PROFILE_STEP_M } from "./curvature.ts";
import { DETECT_DEFAULTS } from "./corners_detect.ts";
import { type LapTrace, valueAt } from "./lap_trace.ts";
import { locateAround, turned } from "./loop_start.ts";
import type { LapCorner } from "./types.ts";

/** Default reach of a corner window on each side of the apex, metres (SPEC 2.1.5). */
export const DEFAULT_WINDOW_M = 75;

/**
 * The authored corners the lap passed, in the order it passed them, located
 * on the lap: list order, or, for a lap cut elsewhere than the line, list
 * order from the first corner it passed, around the loop (loop_start.ts);
 * numbers and names are the list's. A corner whose apex the lap did not
 * pass (within the anchor tolerance, in order) is left out. A missing (or unresolved) entry is
 * {@linkcode DEFAULT_WINDOW_M} before the apex, but never before the
 * midpoint to the previous corner's apex nor before the line; a missing
 * exit likewise after it. A corner authored without a direction takes the
 * way the lap's line bends at the apex, or null on a straight. An empty
 * name becomes "Turn n".
 */
export function authoredCorners(trace: LapTrace, corners: readonly Corner[]): LapCorner[] {
  const { first, at } = locateAround(trace, corners);
  const kept = turned(corners, first)
    .map((c, j) => ({ c, entry: at[3 * j], apex: at[3 * j + 1], exit: at[3 * j + 2] }))
    .filter((k): k is typeof k & { apex: number } => k.apex !== null);
  let profile: LineProfile | null = null;
  const bendAt = (d: number): Side | null => {
    profile ??= lineProfile(trace);
    const k = profile.curvature[Math.round(d / PROFILE_STEP_M)] ?? 0;
    if (Math.abs(k) < DETECT_DEFAULTS.exitCurvature) return null;
    return k > 0 ? "L" : "R";
  };
  const point = (d: number) => ({
    x: valueAt(trace, trace.samples.pos_x, d),
    z: valueAt(trace, trace.samples.pos_z, d),
  });
  return kept.map(({ c, entry, apex, exit }, i) => {
    const prev = i > 0 ? (kept[i - 1].apex + apex) / 2 : 0;
    const next = i + 1 < kept.length ? (apex + kept[i + 1].apex) / 2 : trace.length;
    const entryM = entry ?? Math.max(apex - DEFAULT_WINDOW_M, prev, 0);
    const exitM = exit ?? Math.min(apex + DEFAULT_WINDOW_M, next, trace.length);
    return {
      n: c.n,
      name: c.name.trim() === "" ? `Turn ${c.n}` : c.name,
      direction: c.direction ?? bendAt(apex),
      apex_m: apex,
      entry_m: Math.min(entryM, apex),
      exit_m: Math.max(exitM, apex),
      entry: point(entryM),
      apex: point(apex),
      exit: point(exitM),
    };
  });
}
