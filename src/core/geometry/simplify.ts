/**
 * Douglas-Peucker simplification of a polyline on the ground plane.
 *
 * @module
 */

/** Default tolerance of border simplification, metres (REFERENCE.md 3.5). */
export const SIMPLIFY_TOLERANCE_M = 0.5;

/** Planar distance from p to the segment a-b (to a itself when a = b). */
export function pointSegmentDistance(
  px: number,
  pz: number,
  ax: number,
  az: number,
  bx: number,
  bz: number,
): number {
  const dx = bx - ax;
  const dz = bz - az;
  const len2 = dx * dx + dz * dz;
  let t = len2 > 0 ? ((px - ax) * dx + (pz - az) * dz) / len2 : 0;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(px - (ax + t * dx), pz - (az + t * dz));
}

/**
 * The points of `line` that Douglas-Peucker keeps at `tolerance` metres
 * (planar x/z distance only): always the first and last, and every point
 * whose removal would move the line by more than the tolerance. The kept
 * points are the original objects, in order.
 */
export function simplify<T extends { x: number; z: number }>(
  line: readonly T[],
  tolerance: number = SIMPLIFY_TOLERANCE_M,
): T[] {
  const n = line.length;
  if (n <= 2) return [...line];
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const stack: [number, number][] = [[0, n - 1]];
  while (stack.length > 0) {
    const [first, last] = stack.pop()!;
    const a = line[first];
    const b = line[last];
    let worst = -1;
    let worstDistance = tolerance;
    for (let i = first + 1; i < last; i++) {
      const d = pointSegmentDistance(line[i].x, line[i].z, a.x, a.z, b.x, b.z);
      if (d > worstDistance) {
        worstDistance = d;
        worst = i;
      }
    }
    if (worst < 0) continue;
    keep[worst] = 1;
    stack.push([first, worst], [worst, last]);
  }
  return line.filter((_, i) => keep[i] === 1);
}
