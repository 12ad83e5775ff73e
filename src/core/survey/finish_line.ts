/**
 * The start/finish line from lap-counter rollovers (SPEC.md 2.1.4,
 * REFERENCE.md 2.10): each rollover is a crossing; one locates the line
 * provisionally, several within a few metres make it confident.
 *
 * @module
 */
import type { FinishCrossing } from "../bundle/types.ts";
import { crossingSums } from "../bundle/crossing_sums.ts";

/** The rules of crossings and confidence. */
export const FINISH = {
  /** Slowest speed at which a rollover counts, m/s. */
  minSpeed: 5,
  /** Most crossings held in memory, those loaded from the bundle included. */
  maxHeld: 50,
  /** Crossings needed for confidence. */
  confidentCrossings: 2,
  /** Largest distance of any crossing from their mean for confidence, metres. */
  confidentSpread: 15,
} as const;

/** Where the line is believed to be. */
export interface FinishLineState {
  /** Crossings the estimate rests on. */
  crossings: number;
  /** Mean position, 2 dp. */
  x: number;
  z: number;
  /** Largest distance of a crossing from the mean, metres, 1 dp. */
  spread_m: number;
  /** Unit direction of travel over the line, 5 dp. */
  hx: number;
  hz: number;
  /** True with at least 2 crossings no more than 15 m from their mean. */
  confident: boolean;
}

/**
 * True when going from lap `prev` to `current` is a crossing of the line:
 * the counter was already at least 1 and rose by exactly one (a 0 -> 1
 * start happens wherever the car joins, and a counter falling back is a
 * restart).
 */
export function isRollover(prev: number, current: number): boolean {
  return prev >= 1 && current === prev + 1;
}

function round(value: number, dp: number): number {
  const f = 10 ** dp;
  const r = Math.round(value * f) / f;
  return r === 0 ? 0 : r;
}

/**
 * The crossing recorded for a rollover at (x, z) with unit heading (hx, hz)
 * onto lap `lap`: position to 3 dp, heading to 5 dp.
 */
export function crossingAt(
  x: number,
  z: number,
  hx: number,
  hz: number,
  lap: number,
): FinishCrossing {
  return { x: round(x, 3), z: round(z, 3), hx: round(hx, 5), hz: round(hz, 5), lap };
}

/**
 * What `crossings` say about the line, or null when there are none. The
 * heading is the normalised sum of headings, or the first one when they
 * cancel out.
 */
export function finishLineState(crossings: readonly FinishCrossing[]): FinishLineState | null {
  const n = crossings.length;
  if (n === 0) return null;
  const sums = crossingSums(crossings);
  let { hx, hz } = sums;
  const mx = sums.x / n;
  const mz = sums.z / n;
  let spread = 0;
  for (const c of crossings) spread = Math.max(spread, Math.hypot(c.x - mx, c.z - mz));
  const norm = Math.hypot(hx, hz);
  if (norm < 0.1) {
    hx = crossings[0].hx;
    hz = crossings[0].hz;
  } else {
    hx /= norm;
    hz /= norm;
  }
  return {
    crossings: n,
    x: round(mx, 2),
    z: round(mz, 2),
    spread_m: round(spread, 1),
    hx: round(hx, 5),
    hz: round(hz, 5),
    confident: n >= FINISH.confidentCrossings && spread <= FINISH.confidentSpread,
  };
}
