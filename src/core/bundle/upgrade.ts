/**
 * Reading older documents as v4 (SPEC.md 9.1, REFERENCE.md 1.2). Upgrades
 * happen in memory; the store is rewritten only by the next save or merge.
 *
 * @module
 */
import { cellKey } from "./cell.ts";
import { resolveKind } from "./kind.ts";
import { isSourceId, syntheticSourceId } from "./source_id.ts";
import type {
  BundleLegacy,
  BundleV1,
  BundleV4,
  Edge,
  LegacyVotes,
  ValidatedBundle,
  Votes,
} from "./types.ts";
import { BUNDLE_FORMAT, edgeWith, KINDS } from "./types.ts";
import { castVote, reconcileSourceRuns, sumRuns } from "./votes.ts";

function cellsFromV1(doc: BundleV1, source: string): Edge[] {
  const cells = new Map<number, Edge>();
  for (const record of doc.edges) {
    const key = cellKey(record.x, record.z, record.side);
    let cell = cells.get(key);
    if (cell === undefined) {
      cell = {
        x: record.x,
        z: record.z,
        y: null,
        hx: record.hx,
        hz: record.hz,
        side: record.side,
        kind: "auto",
        votes: {},
        run: 0,
        tw: null,
      };
      cells.set(key, cell);
    }
    // Every v1 record is run-0 evidence, so a repeated kind in one cell counts once.
    cell.votes = castVote(cell.votes, record.kind, source, 0);
  }
  const edges = [...cells.values()];
  for (const edge of edges) edge.kind = resolveKind(edge.votes);
  return edges;
}

function attribute(votes: LegacyVotes, source: string): Votes {
  const out: Votes = {};
  for (const kind of KINDS) {
    const entry = votes[kind];
    if (entry === undefined) continue;
    // Old documents could count samples, not runs; v4 never lets count pass max(run, 1).
    out[kind] = { [source]: [Math.min(entry[0], Math.max(entry[1], 1)), entry[1]] };
  }
  return out;
}

function cellsFromLegacy(doc: BundleLegacy, source: string): Edge[] {
  return doc.edges.map((e) => {
    const votes = attribute(e.votes, source);
    return edgeWith(e, resolveKind(votes), votes);
  });
}

/**
 * The v4 form of a validated document. A v4 document is returned as it is.
 * Older ones have their votes attributed to `source`: pass this
 * installation's id for a local document, or use {@link upgradeImported}.
 * v1 records sharing a cell become one edge voting for each kind at run 0;
 * v2/v3 votes keep their [count, run] (count capped at max(run, 1)); y
 * becomes null where absent; corners and sections are empty, official is
 * null, and `source_runs` is `{source: runs}` raised to the vote watermark.
 * The result is a valid, normalised v4 document; the same input and source
 * always give the same output.
 *
 * @throws {TypeError} when `source` is not a valid source id.
 */
export function upgrade(doc: ValidatedBundle, source: string): BundleV4 {
  if (doc.version === 4) return doc;
  if (!isSourceId(source)) throw new TypeError(`not a source id: ${JSON.stringify(source)}`);
  const edges = doc.version === 1 ? cellsFromV1(doc, source) : cellsFromLegacy(doc, source);
  const sourceRuns = reconcileSourceRuns({ [source]: doc.meta.runs }, edges);
  return {
    format: BUNDLE_FORMAT,
    version: 4,
    meta: {
      track: doc.meta.track,
      runs: sumRuns(sourceRuns),
      source_runs: sourceRuns,
      updated_at: doc.meta.updated_at,
      official: null,
    },
    edges,
    finish_crossings: doc.finish_crossings.map((c) => ({ ...c })),
    corners: [],
    sections: [],
  };
}

/**
 * The v4 form of an imported document: v1-v3 votes go to the synthetic
 * source derived from the document itself, so they never collide with the
 * importer's own runs and a re-import lands on the same source.
 */
export function upgradeImported(doc: ValidatedBundle): BundleV4 {
  return doc.version === 4 ? doc : upgrade(doc, syntheticSourceId(doc));
}
