/**
 * Following a lap along every reference line at once. Positions are taken
 * about {@linkcode STEP_M} apart (closer ones are skipped, further ones up
 * to {@linkcode MAX_FILL_M} apart are filled in along the straight line
 * between them, as a thinned capture needs), and each is looked up in the
 * {@linkcode ReferenceIndex}. Per line the follower keeps: the lap metres
 * driven on it (within the line's near distance), the recorded metres of
 * the line the lap passed, and the metres of progress with and against the
 * line's driving order. A hole in the positions is bridged on a line when
 * the lap comes back onto it further along, about as far as the hole is
 * long: the line's road across the hole counts as passed. The whole-lap
 * matcher reads these at the end of a lap; the live matcher after every
 * step.
 *
 * @module
 */
import { cellHash, type ReferenceIndex } from "./reference_index.ts";

/** Distance between the positions the follower looks at, metres. */
export const STEP_M = 4;
/**
 * Two positions further apart than this are a hole, metres: lost packets, a
 * reset or a rewind. Where the car went in between is unknown, so a hole
 * counts neither on nor off any line, and keeps the lap's continuity on a
 * line only where the lap comes back onto it about as far along as the
 * hole is long (see {@linkcode HOLE_REACH}); its straight-line length is
 * added to {@linkcode LineFollower.hole_m}. (Thinned
 * captures keep positions at most 50 m apart; at 60 Hz a car moves about 1 m.)
 */
export const MAX_FILL_M = 60;
/**
 * Progress along a line between two looked-at positions counts only when it
 * is at most twice their distance plus this, metres: more is a jump to
 * another part of the line (a crossover, a parallel stretch).
 */
export const CONTINUITY_SLACK_M = 15;
/**
 * Across a hole, progress along a line counts (and the line's road across
 * it is passed) when it is at most this many times the hole's straight
 * length plus {@linkcode CONTINUITY_SLACK_M}: the road may curve where the
 * positions are missing.
 */
export const HOLE_REACH = 1.6;
// Preference (added to a squared distance) for a continuous hit over a nearer one elsewhere
// along the same line.
const DISCONTINUITY_PENALTY = 1e6;
// Coverage marking walks at most this many segments per step (a guard, never reached by driving).
const MAX_MARK = 64;
// Across a bridged hole, at most this many segments (5 km of a line kept every 5 m).
const MAX_BRIDGE_MARK = 1000;
/**
 * Positions further than this from the world's origin on either axis are
 * ignored, metres: no circuit is there (GT7's lie within some 10 km), and
 * past 2^53 cells the walk over a cell's neighbours would never end.
 */
export const MAX_COORD_M = 1e7;

/**
 * The per-line tallies of one lap. Arrays are indexed by line number (the
 * index's order) and read-only to callers.
 */
export class LineFollower {
  /** The lines followed. */
  readonly index: ReferenceIndex;
  /** Lap metres on each line. */
  readonly on_m: Float64Array;
  /** Recorded metres of each line the lap passed. */
  readonly covered_m: Float64Array;
  /** Metres of progress along each line in its order, and against it. */
  readonly with_m: Float64Array;
  readonly against_m: Float64Array;
  /** Positions looked at. */
  steps = 0;
  /** Lap metres followed (holes excluded). */
  total_m = 0;
  /** Straight-line metres of the holes in the lap (see {@linkcode MAX_FILL_M}). */
  hole_m = 0;
  readonly #lastStep: Int32Array;
  readonly #lastS: Float64Array;
  readonly #lastPoint: Int32Array;
  readonly #covered: Uint8Array;
  readonly #stamp: Int32Array;
  readonly #bestScore: Float64Array;
  readonly #bestPoint: Int32Array;
  readonly #touched: Int32Array;
  /** The cell the last step was in, and its 3 x 3 cells' entry ranges (see #locate). */
  #cellX = Number.NaN;
  #cellZ = Number.NaN;
  readonly #ranges = new Int32Array(27);
  /** Per line: half its length for a loop (progress past it wraps round), else infinity. */
  readonly #halfLoop: Float64Array;
  #has = false;
  #x = 0;
  #z = 0;

  /**
   * A follower over `index`'s lines, counting a position within a line's
   * near distance (`index.nearM`) as on it.
   */
  constructor(index: ReferenceIndex) {
    this.index = index;
    const n = index.lines.length;
    this.#halfLoop = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      this.#halfLoop[k] = index.loop[k] === 1 ? index.lengthM[k] / 2 : Infinity;
    }
    this.on_m = new Float64Array(n);
    this.covered_m = new Float64Array(n);
    this.with_m = new Float64Array(n);
    this.against_m = new Float64Array(n);
    this.#lastStep = new Int32Array(n).fill(-10);
    this.#lastS = new Float64Array(n);
    this.#lastPoint = new Int32Array(n);
    this.#covered = new Uint8Array(index.points);
    this.#stamp = new Int32Array(n).fill(-10);
    this.#bestScore = new Float64Array(n);
    this.#bestPoint = new Int32Array(n);
    this.#touched = new Int32Array(n);
  }

  /** Forgets the lap: every tally back to zero. */
  reset(): void {
    this.on_m.fill(0);
    this.covered_m.fill(0);
    this.with_m.fill(0);
    this.against_m.fill(0);
    this.#lastStep.fill(-10);
    this.#covered.fill(0);
    this.#stamp.fill(-10);
    this.steps = 0;
    this.total_m = 0;
    this.hole_m = 0;
    this.#has = false;
  }

  /**
   * Takes the next position of the lap. Non-finite positions, and those
   * beyond {@linkcode MAX_COORD_M} of the origin, are ignored;
   * a position under {@linkcode STEP_M} from the last one looked at is
   * skipped; a longer move is looked at in steps of at most STEP_M along the
   * straight line; a move over {@linkcode MAX_FILL_M} is a hole, bridged on
   * each line the lap comes back onto about as far along as the hole is
   * long (see {@linkcode HOLE_REACH}). Returns how many positions were
   * looked at (0 when skipped).
   */
  push(x: number, z: number): number {
    if (!(Math.abs(x) <= MAX_COORD_M && Math.abs(z) <= MAX_COORD_M)) return 0;
    if (!this.#has) {
      this.#has = true;
      this.#x = x;
      this.#z = z;
      this.#visit(x, z, 0, 0);
      return 1;
    }
    const dx = x - this.#x;
    const dz = z - this.#z;
    const d2 = dx * dx + dz * dz;
    if (d2 < STEP_M * STEP_M) return 0;
    const d = Math.sqrt(d2);
    const x0 = this.#x;
    const z0 = this.#z;
    this.#x = x;
    this.#z = z;
    if (d > MAX_FILL_M) {
      this.hole_m += d;
      this.#visit(x, z, 0, d);
      return 1;
    }
    const n = d < 2 * STEP_M ? 1 : Math.ceil(d / STEP_M);
    for (let k = 1; k <= n; k++) this.#visit(x0 + (dx * k) / n, z0 + (dz * k) / n, d / n, 0);
    return n;
  }

  /**
   * Finds the 3 x 3 cells around cell (cx, cz) in the index: for each, a
   * columns first, its first entry, first copy and end (all equal when empty).
   */
  #locate(cx: number, cz: number): void {
    const { mask, keyX, keyZ, count, start, copies } = this.index;
    const ranges = this.#ranges;
    let r = 0;
    for (let a = cx - 1; a <= cx + 1; a++) {
      for (let b = cz - 1; b <= cz + 1; b++, r += 3) {
        let slot = cellHash(a, b) & mask;
        while (count[slot] !== -1 && (keyX[slot] !== a || keyZ[slot] !== b)) {
          slot = (slot + 1) & mask;
        }
        const n = Math.max(0, count[slot]);
        const first = n > 0 ? start[slot] : 0;
        ranges[r] = first;
        ranges[r + 1] = first + n - (n > 0 ? copies[slot] : 0);
        ranges[r + 2] = first + n;
      }
    }
    this.#cellX = cx;
    this.#cellZ = cz;
  }

  #wrap(line: number, delta: number): number {
    const half = this.#halfLoop[line];
    if (delta > half) return delta - 2 * half;
    if (delta < -half) return delta + 2 * half;
    return delta;
  }

  #visit(x: number, z: number, l: number, hole: number): void {
    const ix = this.index;
    const step = ++this.steps;
    this.total_m += l;
    const reach = hole > 0 ? HOLE_REACH * hole + CONTINUITY_SLACK_M : 2 * l + CONTINUITY_SLACK_M;
    const cell = ix.cell_m;
    const cx = Math.floor(x / cell);
    const cz = Math.floor(z / cell);
    // Locals, so the hot loop reads no property twice.
    // Steps are 4 m and cells 10 m: most steps read the same 3 x 3 cells as the last one.
    if (cx !== this.#cellX || cz !== this.#cellZ) this.#locate(cx, cz);
    const ranges = this.#ranges;
    const { entries, entryData, entryLine, ps } = ix;
    const halfLoop = this.#halfLoop;
    const { copyDX, copyDZ } = ix;
    const stamp = this.#stamp;
    const lastStep = this.#lastStep;
    const lastS = this.#lastS;
    const bestScore = this.#bestScore;
    const bestPoint = this.#bestPoint;
    const touchedLines = this.#touched;
    let touched = 0;
    for (let r = 0; r < 27; r += 3) {
      const end = ranges[r + 2];
      const firstCopy = ranges[r + 1];
      // This cell minus the centre one, per axis (r / 3 is 3 * (a - cx + 1) + (b - cz + 1)).
      const da = ((r / 9) | 0) - 1;
      const db = ((r / 3) % 3) - 1;
      // A copy's own cell within the 3 x 3 read is read there: the copy is skipped.
      for (let e = ranges[r]; e < end; e++) {
        if (e >= firstCopy) {
          const oa = da + copyDX[e];
          const ob = db + copyDZ[e];
          if (oa >= -1 && oa <= 1 && ob >= -1 && ob <= 1) continue;
        }
        const at = 4 * e;
        const ex = x - entryData[at];
        const ez = z - entryData[at + 1];
        let score = ex * ex + ez * ez;
        if (score > entryData[at + 2]) continue;
        const line = entryLine[e];
        // The continuity penalty only adds: a point no nearer than the line's best yet loses.
        const seen = stamp[line] === step;
        if (seen && score >= bestScore[line]) continue;
        if (lastStep[line] === step - 1) {
          let delta = entryData[at + 3] - lastS[line];
          const half = halfLoop[line];
          if (delta > half) delta -= 2 * half;
          else if (delta < -half) delta += 2 * half;
          if (delta > reach || delta < -reach) score += DISCONTINUITY_PENALTY;
        }
        if (!seen) {
          stamp[line] = step;
          touchedLines[touched++] = line;
        } else if (score >= bestScore[line]) continue;
        bestScore[line] = score;
        bestPoint[line] = entries[e];
      }
    }
    const onM = this.on_m;
    const coveredM = this.covered_m;
    const covered = this.#covered;
    const { segInferred, segLen } = ix;
    const lastPoint = this.#lastPoint;
    for (let k = 0; k < touched; k++) {
      const line = touchedLines[k];
      const g = bestPoint[line];
      const s = ps[g];
      onM[line] += l;
      // The same point as the last step's (a line kept every 5 m, steps of 4 m): no progress.
      if (lastStep[line] === step - 1 && g !== lastPoint[line]) {
        const delta = this.#wrap(line, s - lastS[line]);
        // Across a hole only progress of about the hole's length bridges it; more is a jump.
        if (Math.abs(delta) <= reach && (hole === 0 || Math.abs(delta) >= hole / HOLE_REACH)) {
          if (delta >= 0) this.with_m[line] += delta;
          else this.against_m[line] -= delta;
          const from = lastPoint[line];
          // Most steps pass one segment: from a point to the next (or back), marked here.
          const one = g === from + 1 && delta >= 0 ? from : g === from - 1 && delta < 0 ? g : -1;
          if (one >= 0) {
            if (covered[one] === 0) {
              covered[one] = 1;
              if (segInferred[one] === 0) coveredM[line] += segLen[one];
            }
          } else this.#mark(line, from, g, delta >= 0, hole > 0 ? MAX_BRIDGE_MARK : MAX_MARK);
        }
      }
      lastStep[line] = step;
      lastS[line] = s;
      lastPoint[line] = g;
    }
  }

  /** Marks the segments between points `from` and `to` (global ids of one line) as passed. */
  #mark(line: number, from: number, to: number, forward: boolean, most: number): void {
    const ix = this.index;
    const first = ix.lineStart[line];
    const segments = ix.lineStart[line + 1] - first - 1;
    const loop = ix.loop[line] === 1;
    // A loop's last point is its first one again.
    let i = from - first;
    let j = to - first;
    if (loop && i === segments) i = 0;
    if (loop && j === segments) j = 0;
    for (let k = 0; k < most && i !== j; k++) {
      let seg = i;
      if (forward) {
        i++;
        if (i === segments && loop) i = 0;
      } else {
        if (i === 0) {
          if (!loop) return;
          i = segments;
        }
        seg = --i;
      }
      const g = first + seg;
      if (this.#covered[g] === 0) {
        this.#covered[g] = 1;
        if (ix.segInferred[g] === 0) this.covered_m[line] += ix.segLen[g];
      }
      if (!loop && (i < 0 || i > segments)) return;
    }
  }
}
