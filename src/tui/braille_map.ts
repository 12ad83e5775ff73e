/**
 * The track map for a terminal: borders (and the finish line) drawn in
 * braille cells, each cell a 2 x 4 grid of dots, so a cols x rows block shows
 * 2 * cols x 4 * rows dots. Terminal cells are about twice as tall as wide,
 * which makes the dots about square, so the circuit keeps its shape. A
 * driven line, when given, is drawn as a lighter layer: only in cells the
 * borders leave empty and a dot clear of them, so a partial survey shows
 * where the car went without blurring the borders it did find.
 *
 * @module
 */
import { type ExtraLines, type MapFrame, mapFrame } from "../core/geometry/map_frame.ts";
import type { CompiledTrack } from "../core/geometry/types.ts";
import { BrailleCanvas, segmentDots } from "./braille_canvas.ts";

/** The character marking the car on the map. */
export const CAR_MARKER = "●";

/** Options of {@linkcode renderBrailleMap}. */
export interface BrailleMapOptions {
  /** Width in terminal cells (at least 1). */
  cols: number;
  /** Height in terminal cells (at least 1). */
  rows: number;
  /** Where the car is, world metres; drawn as {@linkcode CAR_MARKER} when on the map. */
  car?: { x: number; z: number } | null;
  /** The driven line, [x, z] world metres; drawn under the borders (see the module notes). */
  driven?: ExtraLines;
}

/** A drawn terminal map. */
export interface BrailleMap {
  /** Exactly `rows` strings of exactly `cols` characters each. */
  lines: string[];
  /** The cell holding the car marker, or null when there is no car or it is off the map. */
  car: { col: number; row: number } | null;
  /** Indexes (`row * cols + col`, ascending) of the cells holding only driven-line dots. */
  faint: number[];
  /** The world rectangle drawn: `2 * cols` dots span `frame.spanX` metres. */
  frame: MapFrame;
}

/**
 * Draws `doc`'s borders and finish line into `cols` x `rows` braille cells,
 * scaled to fit (with the driven line) with the shape kept, the driven line
 * beneath them, and marks the car when given. Pure: the same inputs always
 * give the same lines.
 */
export function renderBrailleMap(doc: CompiledTrack, opts: BrailleMapOptions): BrailleMap {
  const canvas = new BrailleCanvas(opts.cols, opts.rows);
  const { cols, rows, dotsX, dotsY } = canvas;
  const driven = opts.driven ?? [];
  const frame = mapFrame(doc, dotsX / dotsY, 0.02, driven);
  const scale = dotsX / frame.spanX;
  // Dot by dot, what each layer drew: the driven line may only use dots clear of the borders.
  const borderDots = new Uint8Array(dotsX * dotsY);
  const drivenDots = new Uint8Array(dotsX * dotsY);
  let layer = borderDots;
  const plot = (dx: number, dy: number) => {
    if (dx < 0 || dy < 0 || dx >= dotsX || dy >= dotsY) return;
    layer[dy * dotsX + dx] = 1;
  };
  const toDot = (x: number, z: number): [number, number] => [
    (x - frame.minX) * scale,
    (z - frame.minZ) * scale,
  ];
  const line = (x1: number, z1: number, x2: number, z2: number) => {
    const [ax, ay] = toDot(x1, z1);
    const [bx, by] = toDot(x2, z2);
    segmentDots(ax, ay, bx, by, 0, plot);
  };
  const polylines = (polys: readonly (readonly (readonly [number, number, ...unknown[]])[])[]) => {
    for (const poly of polys) {
      for (let i = 1; i < poly.length; i++) {
        line(poly[i - 1][0], poly[i - 1][1], poly[i][0], poly[i][1]);
      }
    }
  };
  polylines(doc.borders.L);
  polylines(doc.borders.R);
  if (doc.finish) line(...doc.finish);
  layer = drivenDots;
  polylines(driven);
  for (let dy = 0; dy < dotsY; dy++) {
    for (let dx = 0; dx < dotsX; dx++) if (borderDots[dy * dotsX + dx]) canvas.dot(dx, dy);
  }
  const faintCells = drawDriven(canvas, borderDots, drivenDots);
  let car: BrailleMap["car"] = null;
  if (opts.car) {
    const [dx, dy] = toDot(opts.car.x, opts.car.z);
    const col = Math.floor(dx / 2);
    const row = Math.floor(dy / 4);
    if (col >= 0 && row >= 0 && col < cols && row < rows) car = { col, row };
  }
  const lines = canvas.lines((c, r) => car && car.col === c && car.row === r ? CAR_MARKER : null);
  const faint: number[] = [];
  for (let i = 0; i < faintCells.length; i++) {
    if (faintCells[i] && !(car && i === car.row * cols + car.col)) faint.push(i);
  }
  return { lines, car, faint, frame };
}

/**
 * Draws the driven line's dots onto `canvas`: only in cells the borders left
 * empty (or that already hold only driven dots) and a dot clear of the
 * borders. Returns which cells now hold driven dots only.
 */
function drawDriven(
  canvas: BrailleCanvas,
  borderDots: Uint8Array,
  drivenDots: Uint8Array,
): Uint8Array {
  const { cols, rows, dotsX, dotsY, cells } = canvas;
  const faintCells = new Uint8Array(cols * rows);
  for (let dy = 0; dy < dotsY; dy++) {
    for (let dx = 0; dx < dotsX; dx++) {
      if (!drivenDots[dy * dotsX + dx]) continue;
      const cell = canvas.cellOf(dx, dy);
      if (cells[cell] !== 0 && !faintCells[cell]) continue;
      if (nearBorder(borderDots, dotsX, dotsY, dx, dy)) continue;
      canvas.dot(dx, dy);
      faintCells[cell] = 1;
    }
  }
  return faintCells;
}

/** Whether a border dot lies at or next to dot (`dx`, `dy`). */
function nearBorder(dots: Uint8Array, w: number, h: number, dx: number, dy: number): boolean {
  for (let y = Math.max(0, dy - 1); y <= Math.min(h - 1, dy + 1); y++) {
    for (let x = Math.max(0, dx - 1); x <= Math.min(w - 1, dx + 1); x++) {
      if (dots[y * w + x]) return true;
    }
  }
  return false;
}
