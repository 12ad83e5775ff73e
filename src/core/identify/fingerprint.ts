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

/**
 * A ground position, metres, and optionally the unit direction of travel it
 * was evidenced with (a bundle edge's `hx`, `hz`; zero or absent when not).
 */
export interface GroundPoint {
  readonly x: number;
  readonly z: number;
  readonly hx?: number;
  readonly hz?: number;
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
  /**
   * Per occupied cell (packed key) that has travel directions: the sum of
   * its points' unit directions, for the direction test. Empty when no point
   * carried one.
   */
  readonly headings: ReadonlyMap<number, readonly [hx: number, hz: number]>;
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
      headings: new Map(),
    };
  }
  // The dilated box is one cell wider on every side.
  minCx--;
  maxCx++;
  minCz--;
  maxCz++;
  const width = maxCx - minCx + 1;
  const depth = maxCz - minCz + 1;
  const headings = headingSums(points);
  if (width * depth <= MAX_GRID_CELLS) {
    return { ...gridFingerprint(points, { used, minCx, maxCx, minCz, maxCz }), headings };
  }
  return { ...setFingerprint(points, { used, minCx, maxCx, minCz, maxCz }), headings };
}

/** The summed travel directions of the points of each cell that has any. */
function headingSums(points: ArrayLike<GroundPoint>): Map<number, [number, number]> {
  const sums = new Map<number, [number, number]>();
  for (let i = 0; i < points.length; i++) {
    const { x, z, hx, hz } = points[i];
    if (!Number.isFinite(x) || !Number.isFinite(z)) continue;
    if (hx === undefined || hz === undefined || !Number.isFinite(hx) || !Number.isFinite(hz)) {
      continue;
    }
    if (hx === 0 && hz === 0) continue;
    const key = pack(cellOf(x), cellOf(z));
    const sum = sums.get(key);
    if (sum === undefined) sums.set(key, [hx, hz]);
    else {
      sum[0] += hx;
      sum[1] += hz;
    }
  }
  return sums;
}

/**
 * The recorded travel direction around (x, z): the summed directions of the
 * 3x3 block of cells around its cell (a lap runs between a bundle's two
 * borders, so its own cell often holds none). [0, 0] when none is known.
 */
export function headingNear(fp: Fingerprint, x: number, z: number): [number, number] {
  const out: [number, number] = [0, 0];
  if (fp.headings.size === 0) return out;
  const cx = cellOf(x);
  const cz = cellOf(z);
  for (let dx = -1; dx <= 1; dx++) {
    for (let dz = -1; dz <= 1; dz++) {
      const sum = fp.headings.get(pack(cx + dx, cz + dz));
      if (sum === undefined) continue;
      out[0] += sum[0];
      out[1] += sum[1];
    }
  }
  return out;
}

/** How many points were used, and the cells they span (inclusive). */
interface CellBox {
  used: number;
  minCx: number;
  maxCx: number;
  minCz: number;
  maxCz: number;
}

function gridFingerprint(
  points: ArrayLike<GroundPoint>,
  box: CellBox,
): Omit<Fingerprint, "headings"> {
  const { used, minCx, maxCx, minCz, maxCz } = box;
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
  box: CellBox,
): Omit<Fingerprint, "headings"> {
  const { used, minCx, maxCx, minCz, maxCz } = box;
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
