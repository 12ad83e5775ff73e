/**
 * The one braille canvas of the dashboard: a block of cols x rows terminal
 * cells, each a 2 x 4 grid of dots (Unicode braille, U+2800 to U+28FF), so
 * the block holds 2 * cols x 4 * rows dots. The track map, the line map and
 * the charts all draw dots here and read the cells back as text.
 *
 * @module
 */

/** Braille dot bits by [dot column][dot row]. */
const DOT_BITS = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]];
/** The empty braille cell. */
const BLANK = 0x2800;

/** A block of braille cells. */
export class BrailleCanvas {
  /** Width in cells (at least 1). */
  readonly cols: number;
  /** Height in cells (at least 1). */
  readonly rows: number;
  /** Width in dots: 2 * cols. */
  readonly dotsX: number;
  /** Height in dots: 4 * rows. */
  readonly dotsY: number;
  /** The dot bits of each cell, at `row * cols + col`. */
  readonly cells: Uint8Array;

  /** A blank canvas of `cols` x `rows` cells (each floored, and at least 1). */
  constructor(cols: number, rows: number) {
    this.cols = Math.max(1, Math.floor(cols));
    this.rows = Math.max(1, Math.floor(rows));
    this.dotsX = 2 * this.cols;
    this.dotsY = 4 * this.rows;
    this.cells = new Uint8Array(this.cols * this.rows);
  }

  /** The bit dot (`dx`, `dy`) sets in its cell. */
  static bit(dx: number, dy: number): number {
    return DOT_BITS[dx & 1][dy & 3];
  }

  /** The index of the cell holding dot (`dx`, `dy`), which must be on the canvas. */
  cellOf(dx: number, dy: number): number {
    return (dy >> 2) * this.cols + (dx >> 1);
  }

  /** Sets dot (`dx`, `dy`); returns its cell's index, or -1 (and sets nothing) off the canvas. */
  dot(dx: number, dy: number): number {
    if (dx < 0 || dy < 0 || dx >= this.dotsX || dy >= this.dotsY) return -1;
    const cell = this.cellOf(dx, dy);
    this.cells[cell] |= BrailleCanvas.bit(dx, dy);
    return cell;
  }

  /**
   * The cells as `rows` strings of `cols` characters, top row first; a cell
   * for which `instead` gives a string shows that string instead.
   */
  lines(instead?: (col: number, row: number) => string | null): string[] {
    const lines: string[] = [];
    for (let r = 0; r < this.rows; r++) {
      let text = "";
      for (let c = 0; c < this.cols; c++) {
        text += instead?.(c, r) ?? String.fromCharCode(BLANK + this.cells[r * this.cols + c]);
      }
      lines.push(text);
    }
    return lines;
  }
}

/**
 * Walks the straight segment from dot position (`ax`, `ay`) to (`bx`, `by`)
 * (fractional dots) in ceil(max(|bx - ax|, |by - ay|)) equal steps (at least
 * one), calling `plot` with the floored dot of every step from `first` (0:
 * the start itself, 1: the one after it) to the end.
 */
export function segmentDots(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  first: 0 | 1,
  plot: (dx: number, dy: number) => void,
): void {
  const steps = Math.max(1, Math.ceil(Math.max(Math.abs(bx - ax), Math.abs(by - ay))));
  for (let i = first; i <= steps; i++) {
    const t = i / steps;
    plot(Math.floor(ax + (bx - ax) * t), Math.floor(ay + (by - ay) * t));
  }
}
