/**
 * The exported form of a v4 bundle: a fixed key order, vote kinds in
 * tie-break order and source ids sorted, so equal bundles serialise to equal
 * bytes and GET returns a stable shape.
 *
 * @module
 */
import type { BundleV4, Edge, SourceVotes, Votes } from "./types.ts";
import { BUNDLE_FORMAT, edgeWith, KINDS } from "./types.ts";
import { cellKey } from "./cell.ts";

function canonicalVotes(votes: Votes): Votes {
  const out: Votes = {};
  for (const kind of KINDS) {
    const bySource = votes[kind];
    if (bySource === undefined) continue;
    const sorted: SourceVotes = {};
    for (const source of Object.keys(bySource).sort()) {
      const entry = bySource[source];
      sorted[source] = [entry[0], entry[1]];
    }
    out[kind] = sorted;
  }
  return out;
}

function canonicalEdge(e: Edge): Edge {
  return edgeWith(e, e.kind, canonicalVotes(e.votes));
}

/**
 * A copy of `doc` in canonical form: keys in document order (format,
 * version, meta{track, runs, source_runs, updated_at, official}, edges,
 * finish_crossings, corners, sections), every nested object likewise, maps
 * sorted, and edges in cell order (x, then z, then side). Two bundles with
 * equal content give deep-equal results, however their cells arrived; the
 * order of crossings, corners and sections means something and is kept.
 */
export function canonicalBundle(doc: BundleV4): BundleV4 {
  const sourceRuns: Record<string, number> = {};
  for (const source of Object.keys(doc.meta.source_runs).sort()) {
    sourceRuns[source] = doc.meta.source_runs[source];
  }
  const o = doc.meta.official;
  return {
    format: BUNDLE_FORMAT,
    version: 4,
    meta: {
      track: doc.meta.track,
      runs: doc.meta.runs,
      source_runs: sourceRuns,
      updated_at: doc.meta.updated_at,
      official: o === null ? null : {
        track: o.track,
        layout: o.layout,
        official_id: o.official_id,
        official_name: o.official_name,
        turns: o.turns,
        length_m: o.length_m,
        reverse: o.reverse,
      },
    },
    edges: inCellOrder(doc.edges).map(canonicalEdge),
    finish_crossings: doc.finish_crossings.map((c) => ({
      x: c.x,
      z: c.z,
      hx: c.hx,
      hz: c.hz,
      lap: c.lap,
    })),
    corners: doc.corners.map((c) => ({
      n: c.n,
      name: c.name,
      direction: c.direction,
      apex: { x: c.apex.x, z: c.apex.z },
      entry: c.entry === null ? null : { x: c.entry.x, z: c.entry.z },
      exit: c.exit === null ? null : { x: c.exit.x, z: c.exit.z },
      note: c.note,
    })),
    sections: doc.sections.map((s) => ({
      n: s.n,
      name: s.name,
      start: { x: s.start.x, z: s.start.z },
      end: { x: s.end.x, z: s.end.z },
    })),
  };
}

/** `edges` sorted by cell key, stably; `edges` itself when already in that order (as stored). */
function inCellOrder(edges: readonly Edge[]): readonly Edge[] {
  const n = edges.length;
  const keys = new Float64Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    const e = edges[i];
    keys[i] = cellKey(e.x, e.z, e.side);
    if (i > 0 && keys[i] < keys[i - 1]) sorted = false;
  }
  if (sorted) return edges;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => keys[a] - keys[b] || a - b);
  return order.map((i) => edges[i]);
}

/**
 * The compact JSON text of {@link canonicalBundle}: equal bundles give equal
 * strings.
 */
export function serialiseBundle(doc: BundleV4): string {
  return JSON.stringify(canonicalBundle(doc));
}
