/**
 * The edges of a bundle as columns of typed arrays: one row per cell, and
 * the cells' vote entries as one flat list, each cell owning a run of it.
 * A 50,000-edge bundle is about 300,000 vote entries; as objects (an edge, a
 * vote map, a map per kind, an array per entry) that is half a million
 * allocations and some 600 bytes per edge, and every copy of a bundle an
 * import makes cost that again. As columns it is a few megabytes in a
 * dozen arrays, which a merge, a store write and a store read walk without
 * allocating. The object form ({@linkcode Edge}) stays the API of the rest
 * of the engine; `table_convert.ts` turns one into the other.
 *
 * @module
 */
import { type BundleV4, KINDS } from "./types.ts";

/**
 * A bundle's cells as columns. Values of this type have passed validation
 * (or were built from values that had) and are never changed once built.
 *
 * - `y` and `tw` are NaN where the document has null; no column holds -0
 *   (JSON writes it as 0, so the table holds what a document reads back as).
 * - `kind` is resolved from the cell's votes: always, never read from input.
 * - Cell `i`'s vote entries are `voteStart[i]` up to `voteStart[i + 1]`,
 *   ordered by kind (tie-break order) and then by source, each (kind,
 *   source) at most once and every cell with at least one entry.
 * - `voteSource` indexes `sources`, which lists every source that holds an
 *   entry, once each, in {@linkcode compareSources} order: the order a
 *   source map serialises in. Index order is therefore that order too.
 */
export interface EdgeTable {
  /** Cells. */
  readonly length: number;
  readonly x: Float64Array;
  readonly z: Float64Array;
  /** Elevation; NaN when unknown. */
  readonly y: Float64Array;
  readonly hx: Float64Array;
  readonly hz: Float64Array;
  /** Axle track width; NaN when unknown. */
  readonly tw: Float64Array;
  /** Run ordinal of the owning source that first evidenced the cell. */
  readonly run: Int32Array;
  /** 0 for the left border, 1 for the right. */
  readonly side: Uint8Array;
  /** Index into {@linkcode KINDS} of the kind the votes resolve to. */
  readonly kind: Uint8Array;
  /** `length + 1` offsets into the vote columns; the first is 0, the last their length. */
  readonly voteStart: Int32Array;
  /** Index into {@linkcode KINDS}. */
  readonly voteKind: Uint8Array;
  /** Index into `sources`. */
  readonly voteSource: Uint32Array;
  readonly voteCount: Int32Array;
  /** The source's run on which it last saw the kind here. */
  readonly voteRun: Int32Array;
  /** Source ids, in {@linkcode compareSources} order. */
  readonly sources: readonly string[];
}

/** A v4 bundle whose edges are held as an {@linkcode EdgeTable}; every other member as in the document. */
export interface BundleTable extends Omit<BundleV4, "edges"> {
  edges: EdgeTable;
}

/** Index of the first inferred kind in KINDS (wall, runoff, edge | auto, straddle). */
export const FIRST_INFERRED_KIND = 3;

/** Index of `auto`, the kind of a cell without a deciding vote. */
const AUTO = KINDS.indexOf("auto");

/** True for keys every JS object lists first, in numeric order: array indexes. */
function isIndexKey(key: string): boolean {
  const first = key.charCodeAt(0);
  if (!(first >= 48 && first <= 57) || key.length > 10) return false;
  if (first === 48) return key.length === 1;
  for (let i = 1; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return Number(key) <= 4294967294;
}

/**
 * The order a source map built in sorted order lists its keys in: ids that
 * are array indexes (all digits, at most 4294967294) first, by value, then
 * the rest by code unit. `JSON.stringify` writes that order, so it is the
 * order a canonical document's sources appear in.
 */
export function compareSources(a: string, b: string): number {
  const ai = isIndexKey(a);
  const bi = isIndexKey(b);
  if (ai !== bi) return ai ? -1 : 1;
  if (ai) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The kind entries `from` to `to` of the vote columns resolve to (see
 * `resolveKind`): the manual kind with the highest total when any has
 * votes, else the inferred kind with the highest, ties to the earlier kind;
 * `auto` without any.
 */
export function resolveKindAt(
  voteKind: Uint8Array,
  voteCount: Int32Array,
  from: number,
  to: number,
  totals: Float64Array,
): number {
  totals.fill(0);
  for (let v = from; v < to; v++) totals[voteKind[v]] += voteCount[v];
  return kindOfTotals(totals);
}

/**
 * The kind (index into {@linkcode KINDS}) that per-kind vote totals
 * resolve to: the manual kind with the highest total when any has votes,
 * else the inferred kind with the highest, ties to the earlier kind; `auto`
 * without any. The one rule, for tables and edge objects alike.
 */
export function kindOfTotals(totals: Float64Array): number {
  let best = -1;
  let top = 0;
  for (let k = 0; k < FIRST_INFERRED_KIND; k++) {
    if (totals[k] > top) {
      top = totals[k];
      best = k;
    }
  }
  if (best >= 0) return best;
  for (let k = FIRST_INFERRED_KIND; k < KINDS.length; k++) {
    if (totals[k] > top) {
      top = totals[k];
      best = k;
    }
  }
  return best >= 0 ? best : AUTO;
}

/** Doubles `array`'s capacity until it holds `needed`, keeping its contents. */
function grown<T extends Float64Array | Int32Array | Uint8Array | Uint32Array>(
  array: T,
  needed: number,
): T {
  if (needed <= array.length) return array;
  let capacity = Math.max(16, array.length);
  while (capacity < needed) capacity *= 2;
  const out = new (array.constructor as new (n: number) => T)(capacity);
  out.set(array);
  return out;
}

/**
 * Builds an {@linkcode EdgeTable} a cell at a time: {@linkcode addCell},
 * then its entries with {@linkcode addVote}, then the next cell. Sources
 * are interned as they come; {@linkcode finish} puts them (and each cell's
 * entries) in the table's order and resolves every kind. The builder
 * checks nothing: its callers add only validated values.
 */
export class EdgeTableBuilder {
  #cells = 0;
  #votes = 0;
  x: Float64Array;
  z: Float64Array;
  y: Float64Array;
  hx: Float64Array;
  hz: Float64Array;
  tw: Float64Array;
  run: Int32Array;
  side: Uint8Array;
  voteStart: Int32Array;
  voteKind: Uint8Array;
  voteSource: Uint32Array;
  voteCount: Int32Array;
  voteRun: Int32Array;
  readonly #sourceIndex = new Map<string, number>();
  readonly #sources: string[] = [];

  /** An empty builder with room for `cells` cells and `votes` entries (it grows past them). */
  constructor(cells = 16, votes = cells * 4) {
    this.x = new Float64Array(cells);
    this.z = new Float64Array(cells);
    this.y = new Float64Array(cells);
    this.hx = new Float64Array(cells);
    this.hz = new Float64Array(cells);
    this.tw = new Float64Array(cells);
    this.run = new Int32Array(cells);
    this.side = new Uint8Array(cells);
    this.voteStart = new Int32Array(cells + 1);
    this.voteKind = new Uint8Array(votes);
    this.voteSource = new Uint32Array(votes);
    this.voteCount = new Int32Array(votes);
    this.voteRun = new Int32Array(votes);
  }

  /** Cells added. */
  get cells(): number {
    return this.#cells;
  }

  /** Entries added. */
  get votes(): number {
    return this.#votes;
  }

  /**
   * The builder's index of source id `source`, interning it on first sight.
   * Every source interned must get an entry before {@linkcode finish}: a
   * table lists only sources that hold one.
   */
  source(source: string): number {
    let at = this.#sourceIndex.get(source);
    if (at === undefined) {
      at = this.#sources.length;
      this.#sources.push(source);
      this.#sourceIndex.set(source, at);
    }
    return at;
  }

  /** Starts a cell; `y` and `tw` NaN when unknown. Returns its index. */
  addCell(
    x: number,
    z: number,
    y: number,
    hx: number,
    hz: number,
    side: number,
    run: number,
    tw: number,
  ): number {
    const i = this.#cells;
    if (i === this.x.length) this.#growCells(i + 1);
    // Adding 0 turns -0 into 0 and changes nothing else.
    this.x[i] = x + 0;
    this.z[i] = z + 0;
    this.y[i] = y + 0;
    this.hx[i] = hx + 0;
    this.hz[i] = hz + 0;
    this.tw[i] = tw + 0;
    this.run[i] = run;
    this.side[i] = side;
    this.#cells = i + 1;
    this.voteStart[i + 1] = this.#votes;
    return i;
  }

  /** Adds an entry to the cell started last; `source` is a {@linkcode source} index. */
  addVote(kind: number, source: number, count: number, lastRun: number): void {
    const v = this.#votes;
    if (v === this.voteKind.length) this.#growVotes(v + 1);
    this.voteKind[v] = kind;
    this.voteSource[v] = source;
    this.voteCount[v] = count;
    this.voteRun[v] = lastRun;
    this.#votes = v + 1;
    this.voteStart[this.#cells] = v + 1;
  }

  /**
   * The table. With `ordered`, the caller vouches that sources were
   * interned in {@linkcode compareSources} order and every cell's entries
   * added in table order, so nothing is sorted. Kinds are resolved either
   * way. The builder must not be used afterwards.
   */
  finish(ordered = false): EdgeTable {
    const n = this.#cells;
    const m = this.#votes;
    const voteSource = this.voteSource.subarray(0, m);
    const voteKind = this.voteKind.subarray(0, m);
    const voteCount = this.voteCount.subarray(0, m);
    const voteRun = this.voteRun.subarray(0, m);
    let sources = this.#sources;
    if (!ordered) {
      sources = [...this.#sources].sort(compareSources);
      const rank = new Uint32Array(sources.length);
      for (let r = 0; r < sources.length; r++) rank[this.#sourceIndex.get(sources[r])!] = r;
      for (let v = 0; v < m; v++) voteSource[v] = rank[voteSource[v]];
      for (let i = 0; i < n; i++) {
        sortEntries(
          voteKind,
          voteSource,
          voteCount,
          voteRun,
          this.voteStart[i],
          this.voteStart[i + 1],
        );
      }
    }
    const kind = new Uint8Array(n);
    const totals = new Float64Array(KINDS.length);
    for (let i = 0; i < n; i++) {
      kind[i] = resolveKindAt(
        voteKind,
        voteCount,
        this.voteStart[i],
        this.voteStart[i + 1],
        totals,
      );
    }
    return {
      length: n,
      x: this.x.slice(0, n),
      y: this.y.slice(0, n),
      z: this.z.slice(0, n),
      hx: this.hx.slice(0, n),
      hz: this.hz.slice(0, n),
      tw: this.tw.slice(0, n),
      run: this.run.slice(0, n),
      side: this.side.slice(0, n),
      kind,
      voteStart: this.voteStart.slice(0, n + 1),
      voteKind: voteKind.slice(),
      voteSource: voteSource.slice(),
      voteCount: voteCount.slice(),
      voteRun: voteRun.slice(),
      sources,
    };
  }

  #growCells(needed: number): void {
    this.x = grown(this.x, needed);
    this.z = grown(this.z, needed);
    this.y = grown(this.y, needed);
    this.hx = grown(this.hx, needed);
    this.hz = grown(this.hz, needed);
    this.tw = grown(this.tw, needed);
    this.run = grown(this.run, needed);
    this.side = grown(this.side, needed);
    // One offset more than cells, at every capacity: a typed array drops writes past its end.
    this.voteStart = grown(this.voteStart, this.x.length + 1);
  }

  #growVotes(needed: number): void {
    this.voteKind = grown(this.voteKind, needed);
    this.voteSource = grown(this.voteSource, needed);
    this.voteCount = grown(this.voteCount, needed);
    this.voteRun = grown(this.voteRun, needed);
  }
}

/** Insertion sort of entries `from` to `to` by (kind, source): runs are a few entries long. */
function sortEntries(
  kind: Uint8Array,
  source: Uint32Array,
  count: Int32Array,
  run: Int32Array,
  from: number,
  to: number,
): void {
  for (let i = from + 1; i < to; i++) {
    const k = kind[i];
    const s = source[i];
    const c = count[i];
    const r = run[i];
    let j = i - 1;
    while (j >= from && (kind[j] > k || (kind[j] === k && source[j] > s))) {
      kind[j + 1] = kind[j];
      source[j + 1] = source[j];
      count[j + 1] = count[j];
      run[j + 1] = run[j];
      j--;
    }
    kind[j + 1] = k;
    source[j + 1] = s;
    count[j + 1] = c;
    run[j + 1] = r;
  }
}
