/**
 * The cell half of a merge (SPEC.md 2.1.3, REFERENCE.md 1.6), on edge
 * tables: which cells are one, and how their votes combine. merge.ts does
 * the rest of the document.
 *
 * @module
 */
import { CellIndex } from "./cell_index.ts";
import { compareSources, type EdgeTable, EdgeTableBuilder } from "./edge_table.ts";

/** The merged cells and how many of them the local table had. */
export interface MergedCells {
  table: EdgeTable;
  /** Distinct cells of the local table. */
  before: number;
}

/** Growable scratch columns for one cell's entries while folds are applied. */
class Entries {
  kind = new Uint8Array(16);
  source = new Uint32Array(16);
  count = new Int32Array(16);
  run = new Int32Array(16);
  length = 0;

  reserve(n: number): void {
    if (n <= this.kind.length) return;
    let capacity = this.kind.length;
    while (capacity < n) capacity *= 2;
    this.kind = new Uint8Array(capacity);
    this.source = new Uint32Array(capacity);
    this.count = new Int32Array(capacity);
    this.run = new Int32Array(capacity);
  }

  push(kind: number, source: number, count: number, run: number): void {
    const i = this.length++;
    this.kind[i] = kind;
    this.source[i] = source;
    this.count[i] = count;
    this.run[i] = run;
  }
}

/** `sources` of a table mapped to their index in `merged` (both in compareSources order). */
function indexIn(sources: readonly string[], merged: Map<string, number>): Uint32Array {
  const out = new Uint32Array(sources.length);
  for (let i = 0; i < sources.length; i++) out[i] = merged.get(sources[i])!;
  return out;
}

/**
 * Every cell of `local` and then of `incoming`, merged: cells are keyed by
 * (x, z) rounded half-to-even and side; the first record of a cell keeps
 * its x, z, hx, hz, side, run and tw, and its y unless that is unknown, when
 * the first known y of a later record fills it. Each later record of the
 * cell merges its votes in, per kind and source: an entry the cell lacks is
 * taken; one from a later run advances the count to max(prior + 1,
 * incoming) (never past max(run, 1)) at the incoming run; any other leaves
 * the cell's entry. Kinds are re-resolved. Order: local cells, then new
 * cells in incoming order. Neither table is changed.
 */
export function mergeCells(local: EdgeTable | null, incoming: EdgeTable): MergedCells {
  const L = local?.length ?? 0;
  const total = L + incoming.length;
  // Cell c of the result starts from record base[c] (local rows first, then
  // incoming rows, numbered on), and folds in the records chained from firstFold[c].
  const index = new CellIndex(total);
  const base = new Int32Array(total);
  const firstFold = new Int32Array(total).fill(-1);
  const lastFold = new Int32Array(total).fill(-1);
  const nextFold = new Int32Array(total).fill(-1);
  let cells = 0;
  let before = 0;
  for (let r = 0; r < total; r++) {
    const t = r < L ? local! : incoming;
    const i = r < L ? r : r - L;
    const at = index.setIfAbsent(t.x[i], t.z[i], t.side[i] === 1 ? "R" : "L", cells);
    if (at < 0) base[cells++] = r;
    else if (lastFold[at] < 0) firstFold[at] = lastFold[at] = r;
    else lastFold[at] = nextFold[lastFold[at]] = r;
    if (r === L - 1) before = cells;
  }

  const names = [...new Set([...(local?.sources ?? []), ...incoming.sources])].sort(
    compareSources,
  );
  const rank = new Map(names.map((s, i) => [s, i]));
  const localMap = indexIn(local?.sources ?? [], rank);
  const incomingMap = indexIn(incoming.sources, rank);

  const out = new EdgeTableBuilder(cells, (local?.voteKind.length ?? 0) + incoming.voteKind.length);
  for (const name of names) out.source(name);
  let a = new Entries();
  let b = new Entries();
  for (let c = 0; c < cells; c++) {
    const r = base[c];
    const t = r < L ? local! : incoming;
    const i = r < L ? r : r - L;
    const map = r < L ? localMap : incomingMap;
    let y = t.y[i];
    out.addCell(t.x[i], t.z[i], y, t.hx[i], t.hz[i], t.side[i], t.run[i], t.tw[i]);
    const from = t.voteStart[i];
    const to = t.voteStart[i + 1];
    if (firstFold[c] < 0) {
      // Source indexes map in order, so the entries stay in table order.
      for (let v = from; v < to; v++) {
        out.addVote(t.voteKind[v], map[t.voteSource[v]], t.voteCount[v], t.voteRun[v]);
      }
      continue;
    }
    a.length = 0;
    a.reserve(to - from);
    for (let v = from; v < to; v++) {
      a.push(t.voteKind[v], map[t.voteSource[v]], t.voteCount[v], t.voteRun[v]);
    }
    for (let f = firstFold[c]; f >= 0; f = nextFold[f]) {
      const ft = f < L ? local! : incoming;
      const fi = f < L ? f : f - L;
      if (Number.isNaN(y)) {
        y = ft.y[fi];
        out.y[out.cells - 1] = y + 0;
      }
      foldInto(a, ft, fi, f < L ? localMap : incomingMap, b);
      [a, b] = [b, a];
    }
    for (let v = 0; v < a.length; v++) out.addVote(a.kind[v], a.source[v], a.count[v], a.run[v]);
  }
  return { table: out.finish(true), before };
}

/**
 * Writes into `out` the entries of `prior` merged with those of row `i` of
 * `t` (sources through `map`): both lists are in (kind, source) order, so
 * one pass pairs them.
 */
function foldInto(prior: Entries, t: EdgeTable, i: number, map: Uint32Array, out: Entries): void {
  const from = t.voteStart[i];
  const to = t.voteStart[i + 1];
  out.length = 0;
  out.reserve(prior.length + to - from);
  let p = 0;
  let v = from;
  while (p < prior.length || v < to) {
    const pk = p < prior.length ? prior.kind[p] * 2 ** 32 + prior.source[p] : Infinity;
    const vk = v < to ? t.voteKind[v] * 2 ** 32 + map[t.voteSource[v]] : Infinity;
    if (pk < vk) {
      out.push(prior.kind[p], prior.source[p], prior.count[p], prior.run[p]);
      p++;
    } else if (vk < pk) {
      out.push(t.voteKind[v], map[t.voteSource[v]], t.voteCount[v], t.voteRun[v]);
      v++;
    } else {
      const count = prior.count[p];
      const last = prior.run[p];
      const incCount = t.voteCount[v];
      const incRun = t.voteRun[v];
      if (incRun > last) {
        // The count may never pass max(last_run, 1): see votes.ts `capped`.
        out.push(
          prior.kind[p],
          prior.source[p],
          Math.min(Math.max(count + 1, incCount), Math.max(incRun, 1)),
          incRun,
        );
      } else {
        out.push(prior.kind[p], prior.source[p], count, last);
      }
      p++;
      v++;
    }
  }
}
