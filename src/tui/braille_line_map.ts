/**
 * A small track map of a driven line in braille: the path a lap took,
 * scaled to fit a block of cells with its shape kept (as the bundle map,
 * braille_map.ts: world x runs right, world z down), and
 * the cell of any point on it, for a marker that moves without redrawing
 * the line.
 *
 * @module
 */

import { BrailleCanvas, segmentDots } from "./braille_canvas.ts";

/** The character marking a spot on the map. */
export const SPOT_MARKER = "●";

/** A drawn line map. */
export interface LineMap {
  /** Exactly `rows` strings of exactly `cols` characters. */
  lines: string[];
  cols: number;
  rows: number;
  /** World x at the left edge and z at the top edge, metres. */
  minX: number;
  minZ: number;
  /** Dots per metre (the same both ways). */
  scale: number;
}

/**
 * Draws the line through points (`xs[k]`, `zs[k]`) (non-finite points are
 * skipped, and break the line) into `cols` x `rows` braille cells, centred,
 * with a margin of one dot. An empty line draws blank cells.
 */
export function renderLineMap(
  xs: ArrayLike<number>,
  zs: ArrayLike<number>,
  cols: number,
  rows: number,
): LineMap {
  const canvas = new BrailleCanvas(cols, rows);
  ({ cols, rows } = canvas);
  const { dotsX, dotsY } = canvas;
  let minX = Infinity;
  let maxX = -Infinity;
  let minZ = Infinity;
  let maxZ = -Infinity;
  const n = Math.min(xs.length, zs.length);
  for (let k = 0; k < n; k++) {
    const x = xs[k];
    const z = zs[k];
    if (!Number.isFinite(x) || !Number.isFinite(z)) continue;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  if (minX === Infinity) return { lines: canvas.lines(), cols, rows, minX: 0, minZ: 0, scale: 1 };
  const spanX = Math.max(1, maxX - minX);
  const spanZ = Math.max(1, maxZ - minZ);
  const scale = Math.min((dotsX - 2) / spanX, (dotsY - 2) / spanZ);
  // Centre the drawing: the world corner sits this far outside the first dot.
  const x0 = minX - (dotsX - (maxX - minX) * scale) / 2 / scale;
  const z0 = minZ - (dotsY - (maxZ - minZ) * scale) / 2 / scale;
  const plot = (dx: number, dy: number) => void canvas.dot(dx, dy);
  let px = NaN;
  let py = NaN;
  for (let k = 0; k < n; k++) {
    const ax = (xs[k] - x0) * scale;
    const ay = (zs[k] - z0) * scale;
    if (!Number.isFinite(ax) || !Number.isFinite(ay)) {
      px = py = NaN;
      continue;
    }
    if (Number.isFinite(px)) segmentDots(px, py, ax, ay, 1, plot);
    else plot(Math.floor(ax), Math.floor(ay));
    px = ax;
    py = ay;
  }
  return { lines: canvas.lines(), cols, rows, minX: x0, minZ: z0, scale };
}

/** The cell of `map` holding world point (x, z), or null off the map or for a non-finite point. */
export function lineMapCell(
  map: LineMap,
  x: number,
  z: number,
): { col: number; row: number } | null {
  const col = Math.floor((x - map.minX) * map.scale / 2);
  const row = Math.floor((z - map.minZ) * map.scale / 4);
  if (!Number.isFinite(col) || !Number.isFinite(row)) return null;
  if (col < 0 || row < 0 || col >= map.cols || row >= map.rows) return null;
  return { col, row };
}
