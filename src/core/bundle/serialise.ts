/**
 * The exported form of a v4 bundle: a fixed key order, vote kinds in
 * tie-break order and source ids sorted, so equal bundles serialise to equal
 * bytes and GET returns a stable shape.
 *
 * @module
 */
import type { BundleV4, Edge, Kind, SourceVotes, Votes } from "./types.ts";
import { BUNDLE_FORMAT, KINDS } from "./types.ts";
import { cellKey } from "./cell.ts";
import { isNormalised, markNormalised } from "./normalised.ts";

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
  return {
    x: e.x,
    z: e.z,
    y: e.y,
    hx: e.hx,
    hz: e.hz,
    side: e.side,
    kind: e.kind,
    votes: canonicalVotes(e.votes),
    run: e.run,
    tw: e.tw,
  };
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

/** The keys of an edge, in canonical order. */
const EDGE_KEYS = ["x", "z", "y", "hx", "hz", "side", "kind", "votes", "run", "tw"] as const;

/** Position of each kind in tie-break order. */
const KIND_RANK = new Map<string, number>(KINDS.map((k, i) => [k, i]));

/** True for keys every object lists first, in numeric order: array indexes, 0 to 2^32 - 2. */
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

/** True for -0, which JSON writes as 0, and for the numbers JSON cannot write. */
function unwritable(value: number): boolean {
  return value === 0 ? 1 / value < 0 : !Number.isFinite(value);
}

/**
 * True when `JSON.stringify(e)` already writes what `JSON.stringify(canonicalEdge(e))`
 * writes: the edge's keys are exactly those of an edge, in order; its
 * kinds are in tie-break order; each kind's sources list in sorted order
 * (array-index ids, which every object lists first, aside); every entry is
 * a pair. Edges read from the store are, and so are most a merge builds.
 */
function isCanonicalEdge(e: Edge): boolean {
  let at = 0;
  for (const key in e) {
    if (key !== EDGE_KEYS[at++]) return false;
  }
  if (at !== EDGE_KEYS.length) return false;
  const votes = e.votes;
  let rank = -1;
  for (const kind in votes) {
    const r = KIND_RANK.get(kind);
    if (r === undefined || r <= rank) return false;
    rank = r;
    if (!sortedPairs(votes[kind as Kind]!)) return false;
  }
  return true;
}

/** True when the sources of `bySource` list in sorted order and every entry is a pair. */
function sortedPairs(bySource: SourceVotes): boolean {
  let prior: string | null = null;
  for (const source in bySource) {
    const entry = bySource[source];
    if (!Array.isArray(entry) || entry.length !== 2) return false;
    if (isIndexKey(source)) continue;
    if (prior !== null && source <= prior) return false;
    prior = source;
  }
  return true;
}

/** True when every number of `e` reads back from JSON as itself (no -0, NaN or infinity). */
function writesExactly(e: Edge): boolean {
  if (unwritable(e.x) || unwritable(e.z) || unwritable(e.hx) || unwritable(e.hz)) return false;
  if ((e.y !== null && unwritable(e.y)) || (e.tw !== null && unwritable(e.tw))) return false;
  if (unwritable(e.run)) return false;
  for (const kind in e.votes) {
    const bySource = e.votes[kind as Kind]!;
    for (const source in bySource) {
      const entry = bySource[source];
      if (unwritable(entry[0]) || unwritable(entry[1])) return false;
    }
  }
  return true;
}

/**
 * An edge JSON.stringify writes as it writes {@link canonicalEdge}, sharing
 * what is already in order: pairs, and source maps whose sources are sorted.
 */
function writableEdge(e: Edge): Edge {
  const votes: Votes = {};
  for (const kind of KINDS) {
    const bySource = e.votes[kind];
    if (bySource !== undefined) votes[kind] = writableSources(bySource);
  }
  return {
    x: e.x,
    z: e.z,
    y: e.y,
    hx: e.hx,
    hz: e.hz,
    side: e.side,
    kind: e.kind,
    votes,
    run: e.run,
    tw: e.tw,
  };
}

function writableSources(bySource: SourceVotes): SourceVotes {
  if (sortedPairs(bySource)) return bySource;
  const sorted: SourceVotes = {};
  for (const source of Object.keys(bySource).sort()) {
    const entry = bySource[source];
    sorted[source] = [entry[0], entry[1]];
  }
  return sorted;
}

/** A bundle in the form it is written in, see {@linkcode writtenForm}. */
export interface WrittenForm {
  /**
   * What `JSON.stringify` writes as {@link serialiseBundle} does: deep-equal
   * to {@link canonicalBundle}'s copy, but sharing the edges (and vote maps)
   * of the document that are already in canonical form. Immutable, like
   * the document.
   */
  doc: BundleV4;
  /**
   * True when `JSON.parse` of the text gives back a document deep-equal to
   * `doc`: no -0, NaN or infinity in any edge (the other members are
   * passed through JSON, so they always are).
   */
  exact: boolean;
}

/**
 * The form `doc` is written in: its canonical copy, built without copying
 * what is already canonical (edges read from the store are).
 */
export function writtenForm(doc: BundleV4): WrittenForm {
  // The small members go through JSON, so they read back exactly (-0 becomes 0 here too).
  const rest = canonicalBundle({ ...doc, edges: [] });
  const { meta, finish_crossings, corners, sections } = JSON.parse(
    JSON.stringify(rest),
  ) as BundleV4;
  let exact = true;
  const edges = inCellOrder(doc.edges).map((e) => {
    if (exact && !writesExactly(e)) exact = false;
    return isCanonicalEdge(e) ? e : writableEdge(e);
  });
  const written: BundleV4 = {
    format: BUNDLE_FORMAT,
    version: 4,
    meta,
    edges,
    finish_crossings,
    corners,
    sections,
  };
  // Same edges and counters: as normalised as the document it was formed from.
  return { doc: isNormalised(doc) ? markNormalised(written) : written, exact };
}

/** Edges per piece of {@linkcode writtenPieces}: about 0.5 MB of JSON. */
export const EDGES_PER_PIECE = 2_000;

/**
 * The UTF-8 bytes of `JSON.stringify(form)`, in pieces of at most
 * `edgesPerPiece` edges (plus one piece before the edges and one after), so
 * a 13 MB bundle never lies in memory as one string and one buffer. `form`
 * is a {@linkcode writtenForm} document: its members in document order.
 * The pieces joined are byte for byte the text {@link serialiseBundle} gives.
 */
export function* writtenPieces(
  form: BundleV4,
  edgesPerPiece: number = EDGES_PER_PIECE,
): Generator<Uint8Array> {
  const utf8 = new TextEncoder();
  yield utf8.encode(
    `{"format":${JSON.stringify(form.format)},"version":${JSON.stringify(form.version)},` +
      `"meta":${JSON.stringify(form.meta)},"edges":[`,
  );
  for (let i = 0; i < form.edges.length; i += edgesPerPiece) {
    const items = JSON.stringify(form.edges.slice(i, i + edgesPerPiece));
    // Without its brackets: the slices joined by commas are the whole array's items.
    yield utf8.encode((i === 0 ? "" : ",") + items.slice(1, -1));
  }
  yield utf8.encode(
    `],"finish_crossings":${JSON.stringify(form.finish_crossings)},` +
      `"corners":${JSON.stringify(form.corners)},"sections":${JSON.stringify(form.sections)}}`,
  );
}

/**
 * The compact JSON text of {@link canonicalBundle}: equal bundles give equal
 * strings. Byte for byte `JSON.stringify(canonicalBundle(doc))`, but edges
 * already in canonical form are written as they are rather than copied
 * first (see {@linkcode writtenForm}): at 50,000 edges the copy cost more
 * than the writing.
 */
export function serialiseBundle(doc: BundleV4): string {
  return JSON.stringify(writtenForm(doc).doc);
}
