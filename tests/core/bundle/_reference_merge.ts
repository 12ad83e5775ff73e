/**
 * The merge of edge objects as the engine did it before bundles were held
 * as tables (one object per edge, a Map per cell): kept here, in the tests
 * only, as the oracle the table merge is held to. Corners, sections,
 * official and crossings are not modelled; the tests compare cells and
 * counters.
 *
 * @module
 */
import { cellKey } from "../../../src/core/bundle/cell.ts";
import { resolveKind } from "../../../src/core/bundle/kind.ts";
import type { BundleV4, Edge, Votes } from "../../../src/core/bundle/types.ts";
import { KINDS } from "../../../src/core/bundle/types.ts";
import { mergeVote, reconcileSourceRuns, sumRuns } from "../../../src/core/bundle/votes.ts";

/** Every entry of `incoming` merged into a copy of `local` with the rule of `mergeVote`. */
export function referenceVotes(local: Votes, incoming: Votes): Votes {
  const out: Votes = {};
  for (const kind of KINDS) {
    const prior = local[kind];
    const inc = incoming[kind];
    if (prior === undefined && inc === undefined) continue;
    const merged = { ...prior };
    for (const source in inc) merged[source] = mergeVote(merged[source], inc[source]);
    out[kind] = merged;
  }
  return out;
}

/** The cells and counters of `local` merged with `incoming`, edges in merge order. */
export function referenceMerge(
  local: BundleV4 | null,
  incoming: BundleV4,
  reconcileRuns = true,
): { edges: Edge[]; source_runs: Record<string, number>; runs: number; before: number } {
  const edges: Edge[] = [];
  const at = new Map<number, number>();
  const fold = (edge: Edge) => {
    const key = cellKey(edge.x, edge.z, edge.side);
    const held = at.get(key);
    if (held === undefined) {
      at.set(key, edges.length);
      edges.push({ ...edge, kind: resolveKind(edge.votes) });
      return;
    }
    const prior = edges[held];
    const votes = referenceVotes(prior.votes, edge.votes);
    edges[held] = { ...prior, y: prior.y ?? edge.y, votes, kind: resolveKind(votes) };
  };
  for (const edge of local?.edges ?? []) fold(edge);
  const before = edges.length;
  for (const edge of incoming.edges) fold(edge);
  const maxRuns: Record<string, number> = { ...(local?.meta.source_runs ?? {}) };
  for (const [source, runs] of Object.entries(incoming.meta.source_runs)) {
    maxRuns[source] = Math.max(maxRuns[source] ?? runs, runs);
  }
  const source_runs = reconcileSourceRuns(maxRuns, reconcileRuns ? edges : []);
  return { edges, source_runs, runs: sumRuns(source_runs), before };
}
