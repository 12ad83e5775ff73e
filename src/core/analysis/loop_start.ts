/**
 * Laps cut anywhere: a lap whose first sample is not at the start line (a
 * recorder that cuts laps elsewhere, a dump of positions) passes a loop's
 * corners starting from wherever it starts, so the corners before its
 * start come at its end. Its corners are located around the loop in the
 * order it passed them, keeping the map's numbers, and its start is said
 * as metres along the map's loop.
 *
 * @module
 */
import type { Corner } from "../bundle/types.ts";
import { ANCHOR_TOLERANCE_M, resolveAnchors } from "./anchors.ts";
import type { CornerMap } from "./corner_map.ts";
import type { LapTrace } from "./lap_trace.ts";
import type { LapCorner } from "./types.ts";

/** Where a lap passed a list of corners, read around the loop from the lap's start. */
export interface AroundLoop {
  /** Index in the list of the first corner the lap passed: the list turned to start there. */
  first: number;
  /**
   * Lap distances of the turned list's entry, apex and exit anchors (three
   * per corner, non-decreasing; null where not passed in order), as
   * {@linkcode resolveAnchors} gives them.
   */
  at: (number | null)[];
}

function anchorsOf(corners: readonly Corner[]): (Corner["apex"] | null)[] {
  return corners.flatMap((c) => [c.entry, c.apex, c.exit]);
}

function apexesPassed(at: readonly (number | null)[]): number {
  let count = 0;
  for (let j = 1; j < at.length; j += 3) if (at[j] !== null) count++;
  return count;
}

/**
 * Where the lap passed `corners` (in track order from the line), the list
 * turned to start at the first corner the lap passed. A lap that passes
 * every apex in the list's order keeps it as is (`first` 0), at the cost of
 * one anchor search. Otherwise the apexes it missed in order are the
 * corners on the other side of its start: of the longest run of missed
 * apexes (around the loop), the list is turned to start at the run's first
 * corner (they came first on the lap) and at the corner after the run
 * (they came last), and the turn kept whose apexes the lap passes most of
 * in order; the list as given unless a turn passes more.
 */
export function locateAround(trace: LapTrace, corners: readonly Corner[]): AroundLoop {
  const plain = resolveAnchors(trace, anchorsOf(corners));
  const n = corners.length;
  const passedPlain = apexesPassed(plain);
  if (n < 2 || passedPlain === n || passedPlain === 0) return { first: 0, at: plain };
  let best: AroundLoop = { first: 0, at: plain };
  let most = passedPlain;
  for (const first of missedRunEnds(plain, n)) {
    if (first === 0) continue;
    const at = resolveAnchors(trace, anchorsOf(turned(corners, first)));
    const passed = apexesPassed(at);
    if (passed > most) [best, most] = [{ first, at }, passed];
  }
  return best;
}

/**
 * The first corner of the longest run of corners whose apex is unresolved
 * in `at` (around the loop, the first of equals) and the corner after it.
 */
function missedRunEnds(at: readonly (number | null)[], n: number): [number, number] {
  const missed = (j: number) => at[3 * (((j % n) + n) % n) + 1] === null;
  let bestStart = 0;
  let bestLength = 0;
  for (let j = 0; j < n; j++) {
    // A run starts at a missed apex after a passed one.
    if (!missed(j) || missed(j - 1)) continue;
    let length = 0;
    while (length < n && missed(j + length)) length++;
    if (length > bestLength) [bestStart, bestLength] = [j, length];
  }
  return [bestStart, (bestStart + bestLength) % n];
}

/** `list` turned to start at index `first`: `first..end`, then `0..first-1`. */
export function turned<T>(list: readonly T[], first: number): T[] {
  return [...list.slice(first), ...list.slice(0, first)];
}

/**
 * Where the lap's distance axis starts, as metres along `map`'s loop from
 * its line, in `[0, length)` (0.1 m): the map's distance of the first
 * corner the lap passed at least the anchor tolerance from its start, less
 * the lap's distance to it (the nearer that
 * corner to the lap's start, the less the line driven can differ from the
 * map's path). So a lap cut at the line gives about 0 (or a few metres
 * short of the length, when its line lies before the map's), and a lap
 * cut half way round about half the length. Null when the map is no loop,
 * does not say its corners' distances, or the lap passed none of them.
 */
export function lapStartOnMap(map: CornerMap, corners: readonly LapCorner[]): number | null {
  if (!map.loop || corners.length === 0 || map.along_m.length !== map.corners.length) return null;
  // A lap cut within the anchor tolerance of an apex passes it at its first sample, not abreast.
  const clear = corners.find((c) => c.apex_m >= ANCHOR_TOLERANCE_M) ?? corners[0];
  const j = map.corners.findIndex((c) => c.n === clear.n);
  const length = map.length_m;
  if (j < 0 || !(length > 0)) return null;
  let start = (map.along_m[j] - clear.apex_m) % length;
  if (start < 0) start += length;
  const rounded = Math.round(start * 10) / 10;
  return rounded >= length ? 0 : rounded;
}
