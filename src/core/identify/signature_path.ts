/**
 * The driving line a signature keeps of the lap it was made from, so the
 * direction test can tell a lap driven the same way round from one driven
 * the other way: the five numbers of a signature (SPEC.md 2.4) are the same
 * both ways round. Signatures stored before paths were kept have none, and
 * their direction is unknown.
 *
 * @module
 */
import { addHeadings, type DirectionTally, newDirectionTally } from "./direction.ts";

/** Positions the path is made from and tested with: world x and z, parallel arrays. */
export interface PathPositions {
  readonly pos_x: ArrayLike<number>;
  readonly pos_z: ArrayLike<number>;
}

/** Least spacing of a path's points, metres. */
export const PATH_STEP_M = 20;
/** Most points a path keeps: a lap longer than 30 km is kept with wider spacing. */
export const MAX_PATH_POINTS = 1500;
/** A lap position takes the direction of the nearest path point within this, metres. */
export const PATH_NEAR_M = 30;
/** A move longer than this between two positions is a hole (lost packets, a reset), metres. */
const HOLE_M = 60;
/** The lap is tested in moves of at least this, metres. */
const TEST_STEP_M = 5;

/**
 * The lap's driving line, thinned to a point at least every
 * {@linkcode PATH_STEP_M} (wider when that would keep more than
 * {@linkcode MAX_PATH_POINTS}), as flat `[x0, z0, x1, z1, ...]` rounded to
 * decimetres, in the order driven. Non-finite positions are skipped. Empty
 * when the lap has fewer than two kept points.
 */
export function lapPath(lap: PathPositions): number[] {
  const n = Math.min(lap.pos_x.length, lap.pos_z.length);
  let travelled = 0;
  let px = Number.NaN;
  let pz = Number.NaN;
  for (let i = 0; i < n; i++) {
    const x = lap.pos_x[i];
    const z = lap.pos_z[i];
    if (!Number.isFinite(x) || !Number.isFinite(z)) continue;
    if (!Number.isNaN(px)) travelled += Math.hypot(x - px, z - pz);
    px = x;
    pz = z;
  }
  const step = Math.max(PATH_STEP_M, travelled / MAX_PATH_POINTS);
  const out: number[] = [];
  let lx = Number.NaN;
  let lz = Number.NaN;
  for (let i = 0; i < n; i++) {
    const x = lap.pos_x[i];
    const z = lap.pos_z[i];
    if (!Number.isFinite(x) || !Number.isFinite(z)) continue;
    if (!Number.isNaN(lx) && Math.hypot(x - lx, z - lz) < step) continue;
    out.push(dm(x), dm(z));
    lx = x;
    lz = z;
  }
  return out.length >= 4 ? out : [];
}

/**
 * The direction evidence of `lap` over `path` (from {@linkcode lapPath}):
 * the lap is walked in moves of at least 5 m, and each move counts with or
 * against the path's direction at the nearest path point within
 * {@linkcode PATH_NEAR_M}. Moves over 60 m (holes) and moves far from the
 * path add nothing. Judge the tally with `travelDirection`.
 */
export function pathDirection(path: readonly number[], lap: PathPositions): DirectionTally {
  const tally = newDirectionTally();
  const points = Math.floor(path.length / 2);
  if (points < 2) return tally;
  const cells = new Map<number, number[]>();
  for (let j = 0; j < points; j++) {
    const key = cellKey(path[2 * j], path[2 * j + 1]);
    const list = cells.get(key);
    if (list === undefined) cells.set(key, [j]);
    else list.push(j);
  }
  const n = Math.min(lap.pos_x.length, lap.pos_z.length);
  let ax = Number.NaN;
  let az = Number.NaN;
  for (let i = 0; i < n; i++) {
    const x = lap.pos_x[i];
    const z = lap.pos_z[i];
    if (!Number.isFinite(x) || !Number.isFinite(z)) continue;
    if (Number.isNaN(ax)) {
      ax = x;
      az = z;
      continue;
    }
    const dx = x - ax;
    const dz = z - az;
    const len = Math.hypot(dx, dz);
    if (len < TEST_STEP_M) continue;
    if (len <= HOLE_M) {
      const j = nearest(path, cells, ax, az);
      if (j >= 0) {
        const from = Math.max(0, j - 1);
        const to = Math.min(points - 1, j + 1);
        const hx = path[2 * to] - path[2 * from];
        const hz = path[2 * to + 1] - path[2 * from + 1];
        addHeadings(tally, dx / len, dz / len, hx, hz, len);
      }
    }
    ax = x;
    az = z;
  }
  return tally;
}

/** The path point nearest (x, z) within PATH_NEAR_M, or -1. */
function nearest(path: readonly number[], cells: Map<number, number[]>, x: number, z: number) {
  const cx = Math.floor(x / PATH_NEAR_M);
  const cz = Math.floor(z / PATH_NEAR_M);
  let best = -1;
  let bestD = PATH_NEAR_M * PATH_NEAR_M;
  for (let dx = -1; dx <= 1; dx++) {
    for (let dz = -1; dz <= 1; dz++) {
      const list = cells.get(pack(cx + dx, cz + dz));
      if (list === undefined) continue;
      for (const j of list) {
        const d = (path[2 * j] - x) ** 2 + (path[2 * j + 1] - z) ** 2;
        if (d <= bestD) {
          bestD = d;
          best = j;
        }
      }
    }
  }
  return best;
}

function cellKey(x: number, z: number): number {
  return pack(Math.floor(x / PATH_NEAR_M), Math.floor(z / PATH_NEAR_M));
}

// World coordinates stay well within ±1e7 m, so cell indexes fit 21 bits a side.
function pack(cx: number, cz: number): number {
  return (cx + (1 << 20)) * (1 << 21) + (cz + (1 << 20));
}

function dm(v: number): number {
  return Math.round(v * 10) / 10 + 0;
}
