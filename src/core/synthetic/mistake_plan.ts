/**
 * A driver who makes a mistake every lap, for the demo: lap 1 is driven
 * clean, so the later laps have a reference to be noted against, and each
 * later lap makes one mistake (see mistakes.ts) at another of the circuit's
 * braking corners, the kinds in turn. Coaching notes then name real causes
 * ("braked 25 m earlier", "8 km/h less at the minimum", "on the throttle
 * 30 m later") instead of the noise of laps that differ only in grip.
 *
 * @module
 */
import type { DrivePath } from "./driver.ts";
import { CORNER_SEARCH_M, type Mistake } from "./mistakes.ts";

/** The mistakes made in turn, one a lap: sizes the notes measured well past their thresholds. */
export const MISTAKE_ROUND = [
  { kind: "brake_early", metres: 25 },
  { kind: "slow_apex", kmh: 8 },
  { kind: "lift", metres: 30 },
] as const;

/** Least speed shed braking for a corner that takes a mistake, m/s (about 29 km/h). */
const MIN_BRAKING_MS = 8;
/** How far before a corner's slowest point its braking is looked for, metres. */
const BRAKING_LOOK_M = 250;
/** Least curvature at a corner's slowest point, 1/m (a radius of 80 m at most): no kinks. */
const MIN_CURVATURE = 1 / 80;
/** Nearest a corner's slowest point may be to the line, metres: its braking stays in the lap. */
const FROM_LINE_M = 300;

/**
 * Metres into lap 1 of `path` of each braking corner's slowest point, in
 * lap order: the lowest speed within {@linkcode CORNER_SEARCH_M} either
 * side, at least {@linkcode MIN_BRAKING_MS} below the fastest point of the
 * {@linkcode BRAKING_LOOK_M} before it, on a bend of at least
 * {@linkcode MIN_CURVATURE}, at least {@linkcode FROM_LINE_M} past the line
 * and more than CORNER_SEARCH_M before it, so a mistake placed there finds
 * this corner and no other, and the time it costs falls in the lap.
 */
export function brakingCorners(path: DrivePath): number[] {
  const start = path.lineSigma[0];
  const end = path.lineSigma[1];
  const { sigma, speed } = path;
  const out: number[] = [];
  for (let j = 0; j < path.count; j++) {
    const s = sigma[j];
    if (s - start < FROM_LINE_M || end - s <= CORNER_SEARCH_M) continue;
    if (Math.abs(path.curvature[j]) < MIN_CURVATURE) continue;
    let slowest = true;
    let before = speed[j];
    for (let k = j - 1; k >= 0 && s - sigma[k] <= BRAKING_LOOK_M; k--) {
      if (s - sigma[k] <= CORNER_SEARCH_M && speed[k] <= speed[j]) slowest = false;
      before = Math.max(before, speed[k]);
    }
    for (let k = j + 1; k < path.count && sigma[k] - s <= CORNER_SEARCH_M; k++) {
      if (speed[k] < speed[j]) slowest = false;
    }
    if (slowest && before - speed[j] >= MIN_BRAKING_MS) out.push(s - start);
  }
  return out;
}

/**
 * One mistake on each of laps 2 to `laps` of `path`: lap k makes mistake
 * k - 2 of {@linkcode MISTAKE_ROUND} (in turn) at braking corner k - 2 of
 * {@linkcode brakingCorners} (in turn). Empty for one lap, or a circuit
 * with no braking corner.
 */
export function mistakesEveryLap(path: DrivePath, laps: number): Mistake[] {
  const corners = brakingCorners(path);
  if (corners.length === 0) return [];
  const out: Mistake[] = [];
  for (let lap = 2; lap <= laps; lap++) {
    const atM = corners[(lap - 2) % corners.length];
    const kind = MISTAKE_ROUND[(lap - 2) % MISTAKE_ROUND.length];
    out.push({ ...kind, lap, atM });
  }
  return out;
}
