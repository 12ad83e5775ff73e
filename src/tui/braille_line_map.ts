/**
 * A small track map of a driven line in braille: the path a lap took,
 * scaled to fit a block of cells with its shape kept (as the bundle map,
 * src/core/geometry/braille_map.ts: world x runs right, world z down), and
 * the cell of any point on it, for a marker that moves without redrawing
 * the line.
 *
 * @module
 */

/** Braille dot bits by [dot column][dot row]. */
const DOT_BITS = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]];
const BLANK = 0x2800;

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
  cols = Math.max(1, Math.floor(cols));
  rows = Math.max(1, Math.floor(rows));
  const dotsX = 2 * cols;
  const dotsY = 4 * rows;
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
  const cells = new Uint8Array(cols * rows);
  if (minX === Infinity) {
    return { lines: blank(cols, rows), cols, rows, minX: 0, minZ: 0, scale: 1 };
  }
  const spanX = Math.max(1, maxX - minX);
  const spanZ = Math.max(1, maxZ - minZ);
  const scale = Math.min((dotsX - 2) / spanX, (dotsY - 2) / spanZ);
  // Centre the drawing: the world corner sits this far outside the first dot.
  const x0 = minX - (dotsX - (maxX - minX) * scale) / 2 / scale;
  const z0 = minZ - (dotsY - (maxZ - minZ) * scale) / 2 / scale;
  const map: LineMap = { lines: [], cols, rows, minX: x0, minZ: z0, scale };
  const plot = (dx: number, dy: number) => {
    if (dx < 0 || dy < 0 || dx >= dotsX || dy >= dotsY) return;
    cells[(dy >> 2) * cols + (dx >> 1)] |= DOT_BITS[dx & 1][dy & 3];
  };
  let px = NaN;
  let py = NaN;
  for (let k = 0; k < n; k++) {
    const ax = (xs[k] - x0) * scale;
    const ay = (zs[k] - z0) * scale;
    if (!Number.isFinite(ax) || !Number.isFinite(ay)) {
      px = py = NaN;
      continue;
    }
    if (Number.isFinite(px)) {
      const steps = Math.max(1, Math.ceil(Math.max(Math.abs(ax - px), Math.abs(ay - py))));
      for (let i = 1; i <= steps; i++) {
        const t = i / steps;
        plot(Math.floor(px + (ax - px) * t), Math.floor(py + (ay - py) * t));
      }
    } else plot(Math.floor(ax), Math.floor(ay));
    px = ax;
    py = ay;
  }
  for (let r = 0; r < rows; r++) {
    let text = "";
    for (let c = 0; c < cols; c++) text += String.fromCharCode(BLANK + cells[r * cols + c]);
    map.lines.push(text);
  }
  return map;
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

function blank(cols: number, rows: number): string[] {
  return Array.from({ length: rows }, () => String.fromCharCode(BLANK).repeat(cols));
}
