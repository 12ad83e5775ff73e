/**
 * Which corners a lap is analysed by: the circuit's authored corners
 * outrank its corner map, which outranks the corners detected from the
 * lap's own line (SPEC 2.1.5; docs/analysis.md).
 *
 * @module
 */
import type { Corner } from "../bundle/types.ts";
import { authoredCorners } from "./corners_authored.ts";
import type { DetectOptions } from "./corners_detect.ts";
import { type CornerMap, cornerMapOfPath } from "./corner_map.ts";
import type { LapTrace } from "./lap_trace.ts";
import { lapStartOnMap, locateAround } from "./loop_start.ts";
import type { LapCorners } from "./types.ts";

/**
 * A lap's corners, and the definitions they were located from: authored
 * corners, a circuit's map, or the lap's own map (null when it has none).
 */
export interface LocatedCorners extends LapCorners {
  definitions: readonly Corner[] | null;
  /** The circuit's map the corners were located from (`source: "circuit"`), else null. */
  map: CornerMap | null;
}

/**
 * The lap's corners: the authored ones (`source: "authored"`) when the
 * bundle has corners and the lap passed at least one of them; else the
 * circuit's corner map located on the lap (`source: "circuit"`) when there
 * is one and the lap passed at least one of its corners; otherwise those
 * detected from the lap's line (`source: "lap"`). `circuit` may offer
 * several maps (a circuit named without its direction: its layout driven
 * either way round); the lap takes the one whose anchors it passes most of
 * in order (around the loop from wherever the lap starts), the first of
 * equals. `start_m` says where the lap's distance axis starts on the map's
 * loop (loop_start.ts); null for authored or the lap's own corners.
 */
export function lapCorners(
  trace: LapTrace,
  authored: readonly Corner[] | null = null,
  detect: Partial<DetectOptions> = {},
  circuit: CornerMap | readonly CornerMap[] | null = null,
): LocatedCorners {
  if (authored && authored.length > 0) {
    const corners = authoredCorners(trace, authored);
    if (corners.length > 0) {
      return { source: "authored", corners, definitions: authored, start_m: null, map: null };
    }
  }
  const maps = (circuit === null ? [] : "corners" in circuit ? [circuit] : circuit)
    .filter((m) => m.corners.length > 0);
  // Of several maps, the one the lap passes most anchors of in order: driven the other way round,
  // a corner's entry comes after its exit.
  const passed = (m: CornerMap) =>
    locateAround(trace, m.corners).at.filter((d) => d !== null).length;
  const scores = maps.length > 1 ? maps.map(passed) : [1];
  const order = maps.map((_, k) => k).sort((a, b) => scores[b] - scores[a] || a - b);
  for (const k of order) {
    const corners = authoredCorners(trace, maps[k].corners);
    if (corners.length > 0) {
      const start_m = lapStartOnMap(maps[k], corners);
      return { source: "circuit", corners, definitions: maps[k].corners, start_m, map: maps[k] };
    }
  }
  return ownCorners(trace, detect);
}

/**
 * A lap's positions are averaged over this much of its distance each side
 * before its own corners are found, metres: enough to ride out 0.3 m of
 * noise on every 60 Hz sample (0.5 m can still split a long even bend in
 * two), where a reference line's clean points need less.
 */
export const LAP_SMOOTH_HALF_M = 10;

/** A lap whose ends are this close is a loop: a bend across its line is one bend, metres. */
export const CLOSED_LAP_M = 60;

/**
 * A lap's own corners (`source: "lap"`): the map of its own positions
 * (walked by the lap's distance and averaged over
 * {@linkcode LAP_SMOOTH_HALF_M} each side, so repeated, jittery, thrown or
 * missing samples cannot bend the line; see path_profile.ts), made with the
 * defaults (or `detect`) and located on the lap like any map. The
 * definitions are returned so a reference lap finds the same corners
 * itself. A lap without two distinct positions has none.
 */
function ownCorners(trace: LapTrace, detect: Partial<DetectOptions>): LocatedCorners {
  const { pos_x: x, pos_z: z } = trace.samples;
  const n = Math.min(x.length, z.length);
  const closed = n > 1 && Math.hypot(x[0] - x[n - 1], z[0] - z[n - 1]) <= CLOSED_LAP_M;
  let map: CornerMap;
  try {
    map = cornerMapOfPath(x, z, closed, null, detect, {
      dist: trace.samples.dist,
      smoothHalfM: LAP_SMOOTH_HALF_M,
    });
  } catch {
    return { source: "lap", corners: [], definitions: null, start_m: null, map: null };
  }
  const definitions = map.corners;
  return {
    source: "lap",
    corners: authoredCorners(trace, definitions),
    definitions,
    start_m: null,
    map: null,
  };
}
