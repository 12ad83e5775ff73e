/**
 * Between the two forms of a bundle's edges: objects ({@linkcode Edge}), the
 * engine's API, and columns ({@linkcode EdgeTable}), what imports, merges
 * and the store work on. Both directions keep every value; the objects a
 * table gives are those the canonical JSON of the bundle parses back to.
 *
 * @module
 */
import { cellKey } from "./cell.ts";
import { type BundleTable, type EdgeTable, EdgeTableBuilder } from "./edge_table.ts";
import type { BundleV4, Edge, Kind, SourceVotes, Votes } from "./types.ts";
import { KINDS } from "./types.ts";

/** The table of `edges`, in their order; kinds resolved from the votes, never read. */
export function tableOfEdges(edges: readonly Edge[]): EdgeTable {
  const out = new EdgeTableBuilder(edges.length, edges.length * 4);
  for (const e of edges) {
    out.addCell(
      e.x,
      e.z,
      e.y ?? NaN,
      e.hx,
      e.hz,
      e.side === "R" ? 1 : 0,
      e.run,
      e.tw ?? NaN,
    );
    for (let k = 0; k < KINDS.length; k++) {
      const bySource = e.votes[KINDS[k]];
      if (bySource === undefined) continue;
      for (const source in bySource) {
        const entry = bySource[source];
        out.addVote(k, out.source(source), entry[0], entry[1]);
      }
    }
  }
  return out.finish();
}

/**
 * The edges of `table` as objects, in its order: keys in document order,
 * kinds in tie-break order, sources in serialised order, nulls for NaN.
 * Fresh objects, shared with nothing.
 */
export function edgesOfTable(table: EdgeTable): Edge[] {
  const { voteStart, voteKind, voteSource, voteCount, voteRun, sources } = table;
  const out: Edge[] = new Array(table.length);
  for (let i = 0; i < table.length; i++) {
    const votes: Votes = {};
    let current: SourceVotes | null = null;
    let currentKind = -1;
    for (let v = voteStart[i]; v < voteStart[i + 1]; v++) {
      if (voteKind[v] !== currentKind) {
        currentKind = voteKind[v];
        current = votes[KINDS[currentKind]] = {};
      }
      current![sources[voteSource[v]]] = [voteCount[v], voteRun[v]];
    }
    const y = table.y[i];
    const tw = table.tw[i];
    out[i] = {
      x: table.x[i],
      z: table.z[i],
      y: Number.isNaN(y) ? null : y,
      hx: table.hx[i],
      hz: table.hz[i],
      side: table.side[i] === 1 ? "R" : "L",
      kind: KINDS[table.kind[i]] as Kind,
      votes,
      run: table.run[i],
      tw: Number.isNaN(tw) ? null : tw,
    };
  }
  return out;
}

/**
 * The members of `bundle` other than its edges, shared, with `edges`: keys
 * in document order, as a document parsed from JSON has them.
 */
export function withEdges<E>(
  bundle: Omit<BundleV4, "edges">,
  edges: E,
): Omit<BundleV4, "edges"> & { edges: E } {
  return {
    format: bundle.format,
    version: bundle.version,
    meta: bundle.meta,
    edges,
    finish_crossings: bundle.finish_crossings,
    corners: bundle.corners,
    sections: bundle.sections,
  };
}

/** `doc` with its edges as a table; the other members are shared with `doc`. */
export function tableBundleOf(doc: BundleV4): BundleTable {
  return withEdges(doc, tableOfEdges(doc.edges));
}

/** `bundle` as a document of edge objects; the other members are shared with `bundle`. */
export function docOf(bundle: BundleTable): BundleV4 {
  return withEdges(bundle, edgesOfTable(bundle.edges));
}

/**
 * `table` with its cells in cell order (x, then z, then side, as rounded),
 * stably; `table` itself when already in that order, as a stored one is.
 */
export function inCellOrder(table: EdgeTable): EdgeTable {
  const n = table.length;
  const keys = new Float64Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    keys[i] = cellKey(table.x[i], table.z[i], table.side[i] === 1 ? "R" : "L");
    if (i > 0 && keys[i] < keys[i - 1]) sorted = false;
  }
  if (sorted) return table;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  // Typed-array sort with a comparator is stable, and ties keep the earlier cell.
  order.sort((a, b) => keys[a] - keys[b] || a - b);
  return permuted(table, order);
}

/** `table` with cell `order[i]` as its cell `i`. */
function permuted(table: EdgeTable, order: Uint32Array): EdgeTable {
  const n = order.length;
  const pick = <T extends Float64Array | Int32Array | Uint8Array>(column: T): T => {
    const out = new (column.constructor as new (n: number) => T)(n);
    for (let i = 0; i < n; i++) out[i] = column[order[i]];
    return out;
  };
  const m = table.voteKind.length;
  const voteStart = new Int32Array(n + 1);
  const voteKind = new Uint8Array(m);
  const voteSource = new Uint32Array(m);
  const voteCount = new Int32Array(m);
  const voteRun = new Int32Array(m);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const from = table.voteStart[order[i]];
    const to = table.voteStart[order[i] + 1];
    voteKind.set(table.voteKind.subarray(from, to), at);
    voteSource.set(table.voteSource.subarray(from, to), at);
    voteCount.set(table.voteCount.subarray(from, to), at);
    voteRun.set(table.voteRun.subarray(from, to), at);
    at += to - from;
    voteStart[i + 1] = at;
  }
  return {
    length: n,
    x: pick(table.x),
    z: pick(table.z),
    y: pick(table.y),
    hx: pick(table.hx),
    hz: pick(table.hz),
    tw: pick(table.tw),
    run: pick(table.run),
    side: pick(table.side),
    kind: pick(table.kind),
    voteStart,
    voteKind,
    voteSource,
    voteCount,
    voteRun,
    sources: table.sources,
  };
}
