/**
 * Bundle fingerprints (SPEC.md 4.8.2, REFERENCE.md 5.4): the 20 m cells a
 * bundle's border records occupy, held so that "is any cell of the 3x3
 * block around this position occupied?" is one array read.
 *
 * @module
 */

/** Side of an occupancy cell, metres. */
export const CELL_M = 20;

/** Largest dilated grid kept as a byte map (4 MiB); wider bundles use a set. */
const MAX_GRID_CELLS = 1 << 22;

// Packs a cell pair into one exact integer for the set fallback: world
// coordinates are bounded by 1e7 m, so cell indexes fit in 21 bits each side.
const PACK_OFFSET = 1 << 20;
const PACK_SPAN = 1 << 21;

/** A ground position, metres. */
export interface GroundPoint {
  readonly x: number;
  readonly z: number;
}

/**
 * The occupancy of one bundle. Immutable once built; `near` and `grid`
 * already hold the 3x3 dilation, so a lookup answers the block test.
 */
export interface Fingerprint {
  /** Occupied 20 m cells (before dilation). */
  readonly cells: number;
  /** Border records it was built from. */
  readonly points: number;
  /** Bounding box of the dilated cells, in cell indexes (inclusive). */
  readonly minCx: number;
  readonly maxCx: number;
  readonly minCz: number;
  readonly maxCz: number;
  /** 1 where a cell or one of its 8 neighbours is occupied; row-major by x. Null when too wide. */
  readonly grid: Uint8Array | null;
  /** The dilated cells as packed keys, when `grid` is null. */
  readonly near: ReadonlySet<number> | null;
}

/** The index of the 20 m cell holding coordinate `v`: floor(v / 20). */
export function cellOf(v: number): number {
  return Math.floor(v / CELL_M);
}

function pack(cx: number, cz: number): number {
  return (cx + PACK_OFFSET) * PACK_SPAN + (cz + PACK_OFFSET);
}

/**
 * Builds the fingerprint of a bundle's border records. Points with a
 * non-finite coordinate are skipped. An empty list gives a fingerprint that
 * no position hits.
 */
export function buildFingerprint(points: ArrayLike<GroundPoint>): Fingerprint {
  let minCx = Infinity;
  let maxCx = -Infinity;
  let minCz = Infinity;
  let maxCz = -Infinity;
  let used = 0;
  for (let i = 0; i < points.length; i++) {
    const { x, z } = points[i];
    if (!Number.isFinite(x) || !Number.isFinite(z)) continue;
    const cx = cellOf(x);
    const cz = cellOf(z);
    if (cx < minCx) minCx = cx;
    if (cx > maxCx) maxCx = cx;
    if (cz < minCz) minCz = cz;
    if (cz > maxCz) maxCz = cz;
    used++;
  }
  if (used === 0) {
    return {
      cells: 0,
      points: 0,
      minCx: 0,
      maxCx: -1,
      minCz: 0,
      maxCz: -1,
      grid: null,
      near: null,
    };
  }
  // The dilated box is one cell wider on every side.
  minCx--;
  maxCx++;
  minCz--;
  maxCz++;
  const width = maxCx - minCx + 1;
  const depth = maxCz - minCz + 1;
  if (width * depth <= MAX_GRID_CELLS) {
    return gridFingerprint(points, used, minCx, maxCx, minCz, maxCz);
  }
  return setFingerprint(points, used, minCx, maxCx, minCz, maxCz);
}

function gridFingerprint(
  points: ArrayLike<GroundPoint>,
  used: number,
  minCx: number,
  maxCx: number,
  minCz: number,
  maxCz: number,
): Fingerprint {
  const depth = maxCz - minCz + 1;
  const occupied = new Uint8Array((maxCx - minCx + 1) * depth);
  for (let i = 0; i < points.length; i++) {
    const { x, z } = points[i];
    if (!Number.isFinite(x) || !Number.isFinite(z)) continue;
    occupied[(cellOf(x) - minCx) * depth + (cellOf(z) - minCz)] = 1;
  }
  const grid = new Uint8Array(occupied.length);
  let cells = 0;
  for (let k = 0; k < occupied.length; k++) {
    if (occupied[k] === 0) continue;
    cells++;
    for (let dx = -depth; dx <= depth; dx += depth) {
      // Occupied cells are never on the box's outer ring, so every neighbour is inside.
      const row = k + dx;
      grid[row - 1] = 1;
      grid[row] = 1;
      grid[row + 1] = 1;
    }
  }
  return { cells, points: used, minCx, maxCx, minCz, maxCz, grid, near: null };
}

function setFingerprint(
  points: ArrayLike<GroundPoint>,
  used: number,
  minCx: number,
  maxCx: number,
  minCz: number,
  maxCz: number,
): Fingerprint {
  const occupied = new Set<number>();
  const near = new Set<number>();
  for (let i = 0; i < points.length; i++) {
    const { x, z } = points[i];
    if (!Number.isFinite(x) || !Number.isFinite(z)) continue;
    const cx = cellOf(x);
    const cz = cellOf(z);
    const key = pack(cx, cz);
    if (occupied.has(key)) continue;
    occupied.add(key);
    for (let dx = -1; dx <= 1; dx++) {
      for (let dz = -1; dz <= 1; dz++) near.add(pack(cx + dx, cz + dz));
    }
  }
  return { cells: occupied.size, points: used, minCx, maxCx, minCz, maxCz, grid: null, near };
}

/**
 * True when the 3x3 block of cells around the cell holding (x, z) has an
 * occupied cell: the hit of the bundle test.
 */
export function hitsBlock(fp: Fingerprint, x: number, z: number): boolean {
  const cx = cellOf(x);
  const cz = cellOf(z);
  if (cx < fp.minCx || cx > fp.maxCx || cz < fp.minCz || cz > fp.maxCz) return false;
  if (fp.grid !== null) {
    return fp.grid[(cx - fp.minCx) * (fp.maxCz - fp.minCz + 1) + (cz - fp.minCz)] === 1;
  }
  return fp.near !== null && fp.near.has(pack(cx, cz));
}
