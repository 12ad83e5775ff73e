/**
 * A spatial index over every reference line's points, so that "which lines
 * pass within {@linkcode NEAR_M} of this position, and where along each?"
 * costs a few table reads whatever the number of lines. Built once per set of
 * lines and shared by the whole-lap matcher and the live one.
 *
 * @module
 */
import { decodeReferenceLine, type ReferenceLine } from "../catalog/reference_lines.ts";
import { REFERENCE_LINE_ROWS } from "../catalog/reference_lines_data.ts";
import { NEAR_MARGIN_M, nearDistanceM, nearDistanceOfWidthM } from "../catalog/road_widths.ts";

/**
 * A lap position within this of one of a line's points is on the line,
 * metres, on a road of the default width (half of 12 m plus a 4 m margin;
 * see road_widths.ts). Lines keep a point at least every 5 m, so a position
 * up to about 9.7 m from the line itself is always on it. It is also the
 * side of the index's cells.
 */
export const NEAR_M = 10;

/**
 * The points of a set of reference lines, flattened into typed arrays, and
 * an open-addressing hash of square cells of {@linkcode NEAR_M} listing the
 * points in each cell: every point within NEAR_M of a position lies in one
 * of the 3 x 3 cells around it. A line whose near distance is wider than a
 * cell (a wide road) has each point listed also in every neighbouring cell
 * it lies within (near distance - cell) of, so the same 3 x 3 look-up finds
 * it from any position within its near distance.
 * Immutable once built; the arrays are exposed for the followers' inner
 * loop and must not be written.
 */
export class ReferenceIndex {
  /** The lines, in the order their numbers (0..n-1) refer to. */
  readonly lines: readonly ReferenceLine[];
  /** Side of a cell, metres. */
  readonly cell_m: number;
  /** First point of each line in the flat arrays, and one past the last (length lines + 1). */
  readonly lineStart: Int32Array;
  /** Recorded (not inferred) metres of each line: what a whole lap must pass. */
  readonly recordedM: Float64Array;
  /** Per line: 1 for a loop, 0 for a point-to-point line; and its length, metres. */
  readonly loop: Uint8Array;
  readonly lengthM: Float64Array;
  /** Per line: how far from it a position is on it (its road's half-width plus a margin), metres. */
  readonly nearM: Float64Array;
  /** Per point: its line, position and distance along its line. */
  readonly pointLine: Uint16Array;
  readonly px: Float64Array;
  readonly pz: Float64Array;
  readonly ps: Float64Array;
  /** Per point: length of the segment to the next point (0 for a line's last), and 1 if inferred. */
  readonly segLen: Float64Array;
  readonly segInferred: Uint8Array;
  /**
   * The hash of cells: a cell (cx, cz) sits in the first slot from
   * `cellHash(cx, cz) & mask` onwards whose keys match, before any empty slot
   * (count -1). Its points are `entries[start[slot] .. start[slot] + count[slot])`.
   */
  readonly mask: number;
  readonly keyX: Int32Array;
  readonly keyZ: Int32Array;
  readonly start: Int32Array;
  readonly count: Int32Array;
  /** Point ids listed cell by cell. */
  readonly entries: Int32Array;
  /**
   * Per entry, four numbers in entry order: its point's x and z, the square
   * of its line's near distance, and the point's distance along its line;
   * and the point's line. The hot loop reads memory in sequence, never the
   * per-point arrays.
   */
  readonly entryData: Float64Array;
  readonly entryLine: Uint16Array;
  /**
   * Per slot: how many of its entries (its last ones) are copies of a wide
   * line's points from a neighbouring cell; per entry, that cell minus this
   * one (0, 0 for a point in its own cell). A look-up over 3 x 3 cells skips
   * a copy whose own cell it reads anyway, so no point is read twice.
   */
  readonly copies: Int32Array;
  readonly copyDX: Int8Array;
  readonly copyDZ: Int8Array;

  /**
   * Indexes `lines` with cells of `cell_m` metres, or takes `arrays` that
   * {@linkcode indexArrays} already built for exactly these lines and cell.
   */
  constructor(lines: readonly ReferenceLine[], cell_m = NEAR_M, arrays?: ReferenceIndexArrays) {
    const a = arrays ?? runToEnd(indexArrays(lines, cell_m));
    this.lines = lines;
    this.cell_m = cell_m;
    this.lineStart = a.lineStart;
    this.recordedM = a.recordedM;
    this.loop = a.loop;
    this.lengthM = a.lengthM;
    this.nearM = a.nearM;
    this.pointLine = a.pointLine;
    this.px = a.px;
    this.pz = a.pz;
    this.ps = a.ps;
    this.segLen = a.segLen;
    this.segInferred = a.segInferred;
    this.mask = a.mask;
    this.keyX = a.keyX;
    this.keyZ = a.keyZ;
    this.start = a.start;
    this.count = a.count;
    this.entries = a.entries;
    this.entryData = a.entryData;
    this.entryLine = a.entryLine;
    this.copies = a.copies;
    this.copyDX = a.copyDX;
    this.copyDZ = a.copyDZ;
  }

  /** Number of points over all lines. */
  get points(): number {
    return this.pointLine.length;
  }
}

/** The arrays a {@linkcode ReferenceIndex} is made of (see its fields). */
export type ReferenceIndexArrays = Pick<
  ReferenceIndex,
  | "lineStart"
  | "recordedM"
  | "loop"
  | "lengthM"
  | "nearM"
  | "pointLine"
  | "px"
  | "pz"
  | "ps"
  | "segLen"
  | "segInferred"
  | "mask"
  | "keyX"
  | "keyZ"
  | "start"
  | "count"
  | "entries"
  | "entryData"
  | "entryLine"
  | "copies"
  | "copyDX"
  | "copyDZ"
>;

/**
 * Surveyed road widths by official configuration id, metres: a surveyed
 * bundle's width outranks the shipped one (road_widths.ts) for every line
 * of that configuration.
 */
export type RoadWidths = ReadonlyMap<string, number>;

const NO_WIDTHS: RoadWidths = new Map();

/**
 * The near distance of a road `width_m` wide, as
 * {@linkcode nearDistanceOfWidthM} gives it. Throws for a width that is not
 * a positive finite number.
 */
export function surveyedNearM(width_m: number): number {
  if (!(width_m > 0) || !Number.isFinite(width_m)) {
    throw new Error(`width_m must be a positive finite number of metres, got ${width_m}`);
  }
  return nearDistanceOfWidthM(width_m);
}

/** Throws for more than 65,535 lines or a cell that is not positive. */
function checkIndexInput(lines: readonly ReferenceLine[], cell_m: number): void {
  if (lines.length > 0xffff) throw new Error("lines: at most 65,535 reference lines");
  if (!(cell_m > 0)) throw new Error("cell_m must be greater than 0");
}

/** The near distance of `line`: its surveyed width's, else its shipped one's, at most two cells. */
function lineNearM(line: ReferenceLine, cell_m: number, widths: RoadWidths): number {
  const surveyed = widths.get(line.configuration.official_id);
  const near = surveyed === undefined ? nearDistanceM(line.configuration) : surveyedNearM(surveyed);
  return Math.min(2 * cell_m, near);
}

/** Points per slot the cell hash starts with (the shipped lines hold about 3.4 points per cell). */
const HASH_POINTS_PER_SLOT = 0.5;

/** Points handled between two yields of {@linkcode indexArrays}. */
const POINTS_PER_STEP = 4096;

/**
 * Builds the arrays of an index over `lines`, yielding after each line and
 * after every few thousand points, so a caller can spread the work (about
 * 40-60 ms in all for the shipped lines) over many short steps. Throws, at
 * its first step, for more than 65,535 lines or a cell that is not positive.
 */
export function* indexArrays(
  lines: readonly ReferenceLine[],
  cell_m: number,
  widths: RoadWidths = NO_WIDTHS,
): Generator<void, ReferenceIndexArrays> {
  checkIndexInput(lines, cell_m);
  const n = lines.length;
  const lineStart = new Int32Array(n + 1);
  let points = 0;
  for (let k = 0; k < n; k++) {
    lineStart[k] = points;
    points += lines[k].x.length;
  }
  lineStart[n] = points;
  const recordedM = new Float64Array(n);
  const loop = new Uint8Array(n);
  const lengthM = new Float64Array(n);
  const nearM = new Float64Array(n);
  const pointLine = new Uint16Array(points);
  const px = new Float64Array(points);
  const pz = new Float64Array(points);
  const ps = new Float64Array(points);
  const segLen = new Float64Array(points);
  const segInferred = new Uint8Array(points);
  const cellX = new Int32Array(points);
  const cellZ = new Int32Array(points);
  for (let k = 0; k < n; k++) {
    const line = lines[k];
    loop[k] = line.loop ? 1 : 0;
    lengthM[k] = line.length_m;
    nearM[k] = lineNearM(line, cell_m, widths);
    const first = lineStart[k];
    for (let i = 0; i < line.x.length; i++) {
      const g = first + i;
      pointLine[g] = k;
      px[g] = line.x[i];
      pz[g] = line.z[i];
      ps[g] = line.s[i];
      cellX[g] = Math.floor(line.x[i] / cell_m);
      cellZ[g] = Math.floor(line.z[i] / cell_m);
      if (i + 1 < line.x.length) {
        segLen[g] = line.s[i + 1] - line.s[i];
        segInferred[g] = line.inferred[i];
        if (line.inferred[i] === 0) recordedM[k] += segLen[g];
      }
    }
    yield;
  }
  const { entryPoint, cellXs, cellZs } = cellEntries(
    { nearM, pointLine, px, pz, cellX, cellZ },
    cell_m,
  );
  const total = entryPoint.length;
  // Sized for a cell per HASH_POINTS_PER_SLOT points, and doubled (starting over) should the
  // cells fill more than half of it: a compact table keeps look-ups in the cache.
  let size = 1024;
  while (size * HASH_POINTS_PER_SLOT < points) size *= 2;
  let mask = 0;
  let keyX = new Int32Array(0);
  let keyZ = new Int32Array(0);
  let count = new Int32Array(0);
  const slotOf = new Int32Array(total);
  yield;
  for (let e = 0, used = 0; e < total; e++) {
    if (e === 0) {
      mask = size - 1;
      keyX = new Int32Array(size);
      keyZ = new Int32Array(size);
      count = new Int32Array(size).fill(-1);
    }
    const x = cellXs[e];
    const z = cellZs[e];
    let slot = cellHash(x, z) & mask;
    while (count[slot] !== -1 && (keyX[slot] !== x || keyZ[slot] !== z)) slot = (slot + 1) & mask;
    if (count[slot] === -1) {
      if (2 * ++used > size) {
        size *= 2;
        used = 0;
        e = -1;
        continue;
      }
      count[slot] = 0;
      keyX[slot] = x;
      keyZ[slot] = z;
    }
    count[slot]++;
    slotOf[e] = slot;
    if (e % POINTS_PER_STEP === POINTS_PER_STEP - 1) yield;
  }
  const start = slotStarts(count, size);
  yield;
  const filled = yield* fillEntries(
    { nearM, pointLine, px, pz, ps, cellX, cellZ },
    { entryPoint, cellXs, cellZs, slotOf },
    { start, count, size },
  );
  return {
    lineStart,
    recordedM,
    loop,
    lengthM,
    nearM,
    pointLine,
    px,
    pz,
    ps,
    segLen,
    segInferred,
    mask,
    keyX,
    keyZ,
    start,
    count,
    ...filled,
  };
}

/** The entries of each slot, in slot order: its points' own first, then copies (see `copies`). */
function* fillEntries(
  p: PointColumns,
  c: { entryPoint: number[]; cellXs: number[]; cellZs: number[]; slotOf: Int32Array },
  t: { start: Int32Array; count: Int32Array; size: number },
): Generator<
  void,
  Pick<
    ReferenceIndexArrays,
    "entries" | "entryData" | "entryLine" | "copies" | "copyDX" | "copyDZ"
  >
> {
  const total = c.entryPoint.length;
  const copies = new Int32Array(t.size);
  for (let e = 0; e < total; e++) {
    const g = c.entryPoint[e];
    if (c.cellXs[e] !== p.cellX[g] || c.cellZs[e] !== p.cellZ[g]) copies[c.slotOf[e]]++;
  }
  const entries = new Int32Array(total);
  const entryData = new Float64Array(4 * total);
  const entryLine = new Uint16Array(total);
  const copyDX = new Int8Array(total);
  const copyDZ = new Int8Array(total);
  const own = new Int32Array(t.size);
  const copied = new Int32Array(t.size);
  yield;
  for (let e = 0; e < total; e++) {
    const slot = c.slotOf[e];
    const g = c.entryPoint[e];
    const dx = p.cellX[g] - c.cellXs[e];
    const dz = p.cellZ[g] - c.cellZs[e];
    const at = dx === 0 && dz === 0
      ? t.start[slot] + own[slot]++
      : t.start[slot] + t.count[slot] - copies[slot] + copied[slot]++;
    entries[at] = g;
    entryData[4 * at] = p.px[g];
    entryData[4 * at + 1] = p.pz[g];
    entryData[4 * at + 2] = p.nearM[p.pointLine[g]] ** 2;
    entryData[4 * at + 3] = p.ps![g];
    entryLine[at] = p.pointLine[g];
    copyDX[at] = dx;
    copyDZ[at] = dz;
    if (e % POINTS_PER_STEP === POINTS_PER_STEP - 1) yield;
  }
  return { entries, entryData, entryLine, copies, copyDX, copyDZ };
}

/** Per point: its line's near distance, its line, position and cell (and distance along). */
interface PointColumns {
  nearM: Float64Array;
  pointLine: Uint16Array;
  px: Float64Array;
  pz: Float64Array;
  ps?: Float64Array;
  cellX: Int32Array;
  cellZ: Int32Array;
}

/**
 * The index's entries, as (point, cell x, cell z) in point order: every
 * point in its own cell; a wide line's point also in each neighbouring cell
 * it lies within (near - cell) of, so a position up to its near distance
 * away finds it.
 */
function cellEntries(
  p: PointColumns,
  cell_m: number,
): { entryPoint: number[]; cellXs: number[]; cellZs: number[] } {
  const sides = (at: number, c: number, reach: number): number[] => {
    const inCell = at - c * cell_m;
    const out = [0];
    if (inCell < reach) out.push(-1);
    if (cell_m - inCell < reach) out.push(1);
    return out;
  };
  const entryPoint: number[] = [];
  const cellXs: number[] = [];
  const cellZs: number[] = [];
  for (let g = 0; g < p.pointLine.length; g++) {
    const reach = p.nearM[p.pointLine[g]] - cell_m;
    if (reach <= 0) {
      entryPoint.push(g);
      cellXs.push(p.cellX[g]);
      cellZs.push(p.cellZ[g]);
      continue;
    }
    for (const a of sides(p.px[g], p.cellX[g], reach)) {
      for (const b of sides(p.pz[g], p.cellZ[g], reach)) {
        entryPoint.push(g);
        cellXs.push(p.cellX[g] + a);
        cellZs.push(p.cellZ[g] + b);
      }
    }
  }
  return { entryPoint, cellXs, cellZs };
}

/**
 * Where each used slot's entries begin, for a table of `size` slots, slots
 * in order (`count` -1 or 0: unused; empty when there are no entries).
 */
function slotStarts(count: Int32Array, size: number): Int32Array {
  const start = new Int32Array(size);
  let offset = 0;
  for (let slot = 0; slot < size; slot++) {
    if (count[slot] <= 0) continue;
    start[slot] = offset;
    offset += count[slot];
  }
  return start;
}

function runToEnd<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** The hash of cell (cx, cz), before masking with {@linkcode ReferenceIndex.mask}. */
export function cellHash(cx: number, cz: number): number {
  return Math.imul(cx, 73856093) ^ Math.imul(cz, 19349663);
}

/** Indexes with surveyed widths, per base index and widths key; a few kept (bundles rarely change). */
const widened = new WeakMap<ReferenceIndex, Map<string, ReferenceIndex>>();
const WIDENED_KEPT = 4;

/**
 * `index` with the near distance of every line whose configuration has a
 * surveyed width in `widths` taken from that width (see
 * {@linkcode surveyedNearM}). Returns `index` itself when no line's near
 * distance changes, so a process without surveyed bundles pays nothing;
 * otherwise an index over the same lines re-indexed with those distances
 * (40-60 ms), kept for the next call with the same widths.
 */
export function withRoadWidths(index: ReferenceIndex, widths: RoadWidths): ReferenceIndex {
  if (widths.size === 0) return index;
  const changed: string[] = [];
  index.lines.forEach((line, k) => {
    const w = widths.get(line.configuration.official_id);
    if (w === undefined) return;
    if (Math.min(2 * index.cell_m, surveyedNearM(w)) !== index.nearM[k]) {
      changed.push(`${line.configuration.official_id}=${w}`);
    }
  });
  if (changed.length === 0) return index;
  const key = changed.sort().join(",");
  let kept = widened.get(index);
  if (kept === undefined) widened.set(index, kept = new Map());
  const hit = kept.get(key);
  if (hit !== undefined) return hit;
  const base = new Map<string, number>();
  index.lines.forEach((line, k) => {
    const id = line.configuration.official_id;
    const w = widths.get(id);
    if (w !== undefined) base.set(id, w);
    // A line of a configuration without a surveyed width keeps the near distance it was built with.
    else base.set(id, (index.nearM[k] - NEAR_MARGIN_M) * 2);
  });
  const wide = new ReferenceIndex(
    index.lines,
    index.cell_m,
    runToEnd(indexArrays(index.lines, index.cell_m, base)),
  );
  if (kept.size >= WIDENED_KEPT) kept.delete(kept.keys().next().value as string);
  kept.set(key, wide);
  return wide;
}

let shared: ReferenceIndex | null = null;
let building: Generator<void, ReferenceIndex> | null = null;

/** Decodes the shipped lines one per step, then indexes them a few thousand points per step. */
function* buildShared(): Generator<void, ReferenceIndex> {
  const lines: ReferenceLine[] = [];
  for (const row of REFERENCE_LINE_ROWS) {
    lines.push(decodeReferenceLine(row));
    yield;
  }
  const frozen = Object.freeze(lines);
  const arrays = yield* indexArrays(frozen, NEAR_M);
  shared = new ReferenceIndex(frozen, NEAR_M, arrays);
  building = null;
  return shared;
}

/**
 * The index over every reference line the project ships, built on first use
 * and then shared. The first call costs the whole build (88-320 ms measured)
 * unless {@linkcode stepDefaultReferenceIndex} has done it meanwhile; it
 * then finishes whatever the steps left.
 */
export function defaultReferenceIndex(): ReferenceIndex {
  if (shared !== null) return shared;
  building ??= buildShared();
  return runToEnd(building);
}

/**
 * Does one short step of building the shared index (one line decoded, or a
 * few thousand points indexed: about a millisecond or less) and returns the
 * index once it is built, null before. For warming the index up in the
 * background without holding the event loop for long.
 */
export function stepDefaultReferenceIndex(): ReferenceIndex | null {
  if (shared !== null) return shared;
  building ??= buildShared();
  const r = building.next();
  return r.done ? r.value : null;
}
