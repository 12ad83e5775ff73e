/**
 * Resolving what a metre of border is from its votes (SPEC.md 2.1.3).
 *
 * @module
 */
import { INFERRED_KINDS, type Kind, MANUAL_KINDS, type Votes } from "./types.ts";

/** Total count of one kind over every source. */
export function kindTotal(votes: Votes, kind: Kind): number {
  const bySource = votes[kind];
  if (bySource === undefined) return 0;
  let total = 0;
  for (const source in bySource) total += bySource[source][0];
  return total;
}

function bestOf(votes: Votes, tier: readonly Kind[]): Kind | null {
  let best: Kind | null = null;
  let bestTotal = 0;
  // Strictly greater keeps the earlier kind on a tie, which is the tie-break order.
  for (const kind of tier) {
    const total = kindTotal(votes, kind);
    if (total > bestTotal) {
      best = kind;
      bestTotal = total;
    }
  }
  return best;
}

/**
 * The kind the votes settle on: any manual evidence beats inferred evidence
 * outright; within a tier the highest total wins; ties go to the kind earlier
 * in wall, runoff, edge, auto, straddle. A cell without votes is `auto`.
 */
export function resolveKind(votes: Votes): Kind {
  return bestOf(votes, MANUAL_KINDS) ?? bestOf(votes, INFERRED_KINDS) ?? "auto";
}
