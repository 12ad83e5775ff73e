/**
 * The brake marker: how far the car is from the next corner's braking point
 * on the reference lap. The braking points are the reference's own (its
 * corner report against nothing, so `brake_m` is in the reference's metres);
 * the car's place is its matched distance along the reference.
 *
 * @module
 */
import type { CornerReportRow } from "./types.ts";

/** One braking point on the reference lap. */
export interface BrakePoint {
  /** The corner's number (1-based, as the corner report numbers it). */
  corner: number;
  /** The corner's name. */
  name: string;
  /** Metres into the reference lap where it starts braking for this corner. */
  brake_m: number;
}

/** The next braking point ahead of the car. */
export interface NextBrake {
  corner: number;
  name: string;
  /** Metres from the car's place on the reference to the braking point, > 0. */
  distance_m: number;
}

/**
 * The braking points of a reference's corner report, in order along the lap:
 * only corners the reference braked for (a flat-out corner has no marker).
 */
export function brakePoints(rows: readonly CornerReportRow[]): BrakePoint[] {
  const points: BrakePoint[] = [];
  for (const r of rows) {
    if (r.brake_m === null || !Number.isFinite(r.brake_m)) continue;
    points.push({ corner: r.n, name: r.name, brake_m: r.brake_m });
  }
  return points.sort((a, b) => a.brake_m - b.brake_m || a.corner - b.corner);
}

/**
 * The first braking point strictly ahead of `along` (metres into the
 * reference), or past the line the first one of the next lap (`lapLength`
 * being the reference's length, metres). Null without braking points.
 * Guarantees `distance_m > 0`, rounded to 0.1 m (never below 0.1).
 */
export function nextBrake(
  points: readonly BrakePoint[],
  along: number,
  lapLength: number,
): NextBrake | null {
  if (points.length === 0 || !Number.isFinite(along)) return null;
  let lo = 0;
  let hi = points.length;
  // Binary search: this runs on every packet, 60 times a second.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid].brake_m <= along) lo = mid + 1;
    else hi = mid;
  }
  const wrapped = lo === points.length;
  const p = wrapped ? points[0] : points[lo];
  const distance = wrapped ? Math.max(0, lapLength - along) + p.brake_m : p.brake_m - along;
  return {
    corner: p.corner,
    name: p.name,
    distance_m: Math.max(0.1, Math.round(distance * 10) / 10),
  };
}
