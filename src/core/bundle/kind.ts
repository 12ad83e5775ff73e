/**
 * Resolving what a metre of border is from its votes (SPEC.md 2.1.3).
 *
 * @module
 */
import { kindOfTotals } from "./edge_table.ts";
import { type Kind, KINDS, type Votes } from "./types.ts";

/** Total count of one kind over every source. */
export function kindTotal(votes: Votes, kind: Kind): number {
  const bySource = votes[kind];
  if (bySource === undefined) return 0;
  let total = 0;
  for (const source in bySource) total += bySource[source][0];
  return total;
}

/**
 * The kind the votes settle on: any manual evidence beats inferred evidence
 * outright; within a tier the highest total wins; ties go to the kind earlier
 * in wall, runoff, edge, auto, straddle. A cell without votes is `auto`.
 * The rule itself is the table's (`kindOfTotals`).
 */
export function resolveKind(votes: Votes): Kind {
  const totals = new Float64Array(KINDS.length);
  for (let k = 0; k < KINDS.length; k++) totals[k] = kindTotal(votes, KINDS[k]);
  return KINDS[kindOfTotals(totals)];
}
