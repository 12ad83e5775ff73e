/**
 * Checks that a generated circuit does not run over itself: no polyline
 * crosses itself, and no two distant stretches of the lap come close enough
 * for their roads (with kerbs) to touch.
 *
 * @module
 */
import type { Polyline } from "./polyline.ts";

function cellKey(cx: number, cz: number): number {
  return (cx + 32768) * 65536 + (cz + 32768);
}

function orient(ax: number, az: number, bx: number, bz: number, cx: number, cz: number): number {
  const ux = bx - ax;
  const uz = bz - az;
  const wx = cx - ax;
  const wz = cz - az;
  const v = ux * wz - uz * wx;
  // Rounding makes truly collinear points look slightly turned; scale the tolerance with the lengths.
  const eps = 1e-9 * Math.hypot(ux, uz) * Math.hypot(wx, wz);
  return v > eps ? 1 : v < -eps ? -1 : 0;
}

function onSegment(
  ax: number,
  az: number,
  bx: number,
  bz: number,
  px: number,
  pz: number,
): boolean {
  return Math.min(ax, bx) - 1e-12 <= px && px <= Math.max(ax, bx) + 1e-12 &&
    Math.min(az, bz) - 1e-12 <= pz && pz <= Math.max(az, bz) + 1e-12;
}

/** True when segment ab and segment cd share at least one point. */
export function segmentsIntersect(
  ax: number,
  az: number,
  bx: number,
  bz: number,
  cx: number,
  cz: number,
  dx: number,
  dz: number,
): boolean {
  const o1 = orient(ax, az, bx, bz, cx, cz);
  const o2 = orient(ax, az, bx, bz, dx, dz);
  const o3 = orient(cx, cz, dx, dz, ax, az);
  const o4 = orient(cx, cz, dx, dz, bx, bz);
  if (o1 !== o2 && o3 !== o4) return true;
  if (o1 === 0 && onSegment(ax, az, bx, bz, cx, cz)) return true;
  if (o2 === 0 && onSegment(ax, az, bx, bz, dx, dz)) return true;
  if (o3 === 0 && onSegment(cx, cz, dx, dz, ax, az)) return true;
  if (o4 === 0 && onSegment(cx, cz, dx, dz, bx, bz)) return true;
  return false;
}

/**
 * True when two non-adjacent segments of the polyline intersect. A closed
 * polyline also has the segment from its last point back to its first.
 */
export function selfIntersects(line: Polyline, closed: boolean): boolean {
  const n = line.x.length;
  const segs = closed ? n : n - 1;
  if (segs < 3) return false;
  let longest = 0;
  for (let i = 0; i < segs; i++) {
    const j = (i + 1) % n;
    longest = Math.max(longest, Math.hypot(line.x[j] - line.x[i], line.z[j] - line.z[i]));
  }
  const size = Math.max(longest, 1e-6) * 2;
  const cells = new Map<number, number[]>();
  for (let i = 0; i < segs; i++) {
    const j = (i + 1) % n;
    const x0 = Math.floor(Math.min(line.x[i], line.x[j]) / size);
    const x1 = Math.floor(Math.max(line.x[i], line.x[j]) / size);
    const z0 = Math.floor(Math.min(line.z[i], line.z[j]) / size);
    const z1 = Math.floor(Math.max(line.z[i], line.z[j]) / size);
    for (let cx = x0; cx <= x1; cx++) {
      for (let cz = z0; cz <= z1; cz++) {
        const key = cellKey(cx, cz);
        const list = cells.get(key);
        if (list) list.push(i);
        else cells.set(key, [i]);
      }
    }
  }
  for (const list of cells.values()) {
    for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) {
        const i = Math.min(list[a], list[b]);
        const k = Math.max(list[a], list[b]);
        if (k - i <= 1 || (closed && i === 0 && k === segs - 1)) continue;
        const i2 = (i + 1) % n;
        const k2 = (k + 1) % n;
        if (
          segmentsIntersect(
            line.x[i],
            line.z[i],
            line.x[i2],
            line.z[i2],
            line.x[k],
            line.z[k],
            line.x[k2],
            line.z[k2],
          )
        ) return true;
      }
    }
  }
  return false;
}

/**
 * True when two points of a closed, evenly spaced polyline (`spacing` metres
 * apart) lie closer than `clearance` metres while more than `minArc` metres
 * apart along the loop: two separate stretches of road would touch.
 */
export function comesTooClose(
  line: Polyline,
  spacing: number,
  clearance: number,
  minArc: number,
): boolean {
  const n = line.x.length;
  const cells = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const key = cellKey(Math.floor(line.x[i] / clearance), Math.floor(line.z[i] / clearance));
    const list = cells.get(key);
    if (list) list.push(i);
    else cells.set(key, [i]);
  }
  const c2 = clearance * clearance;
  const minSteps = minArc / spacing;
  for (let i = 0; i < n; i++) {
    const cx = Math.floor(line.x[i] / clearance);
    const cz = Math.floor(line.z[i] / clearance);
    for (let dx = -1; dx <= 1; dx++) {
      for (let dz = -1; dz <= 1; dz++) {
        const list = cells.get(cellKey(cx + dx, cz + dz));
        if (!list) continue;
        for (const j of list) {
          if (j <= i) continue;
          const steps = Math.min(j - i, n - (j - i));
          if (steps <= minSteps) continue;
          const ex = line.x[j] - line.x[i];
          const ez = line.z[j] - line.z[i];
          if (ex * ex + ez * ez < c2) return true;
        }
      }
    }
  }
  return false;
}
