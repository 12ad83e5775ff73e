/**
 * Vote arithmetic (SPEC.md 2.1.3, REFERENCE.md 1.6): casting a live vote,
 * merging votes from another document, and the run counters the votes imply.
 * Nothing here mutates its arguments.
 *
 * @module
 */
import type { Edge, Kind, SourceVotes, VoteEntry, Votes } from "./types.ts";
import { KINDS } from "./types.ts";
import type { EdgeTable } from "./edge_table.ts";

/**
 * An entry's count may never exceed max(last_run, 1). The reference rules
 * can break that when a run-0 vote (from a v1 upgrade) is followed by run 1,
 * producing [2, 1], which validation would then refuse on re-import; the
 * cap keeps every document this engine writes importable.
 */
function capped(count: number, lastRun: number): VoteEntry {
  return [Math.min(count, Math.max(lastRun, 1)), lastRun];
}

/** A deep copy of a vote map; the copy shares no arrays or objects with `votes`. */
export function copyVotes(votes: Votes): Votes {
  const out: Votes = {};
  for (const kind of KINDS) {
    const bySource = votes[kind];
    if (bySource === undefined) continue;
    const copy: SourceVotes = {};
    for (const source in bySource) {
      const entry = bySource[source];
      copy[source] = [entry[0], entry[1]];
    }
    out[kind] = copy;
  }
  return out;
}

/**
 * The live-survey vote: a source that has not voted for `kind` here gets
 * [1, run]; one whose last vote was on an earlier run gains one count at
 * `run`; a vote on the same or an older run changes nothing. Returns a new map.
 */
export function castVote(votes: Votes, kind: Kind, source: string, run: number): Votes {
  const out = copyVotes(votes);
  const bySource = out[kind] ?? (out[kind] = {});
  const prior = bySource[source];
  if (prior === undefined) bySource[source] = capped(1, run);
  else if (run > prior[1]) bySource[source] = capped(prior[0] + 1, run);
  return out;
}

/**
 * The merge rule for one source's entry on one kind: with no prior entry the
 * incoming one is taken; an incoming entry from a later run advances the
 * count to max(prior + 1, incoming) at the incoming run; anything else leaves
 * the prior entry. Repeating a merge therefore changes nothing.
 */
export function mergeVote(prior: VoteEntry | undefined, incoming: VoteEntry): VoteEntry {
  if (prior === undefined) return [incoming[0], incoming[1]];
  if (incoming[1] > prior[1]) return capped(Math.max(prior[0] + 1, incoming[0]), incoming[1]);
  return [prior[0], prior[1]];
}

/** Raises `marks[source]` to the highest last_run each source holds in `votes`. */
export function addWatermarks(marks: Map<string, number>, votes: Votes): void {
  for (const kind of KINDS) {
    const bySource = votes[kind];
    if (bySource === undefined) continue;
    for (const source in bySource) {
      const lastRun = bySource[source][1];
      const prior = marks.get(source);
      if (prior === undefined || lastRun > prior) marks.set(source, lastRun);
    }
  }
}

/**
 * The run counters reconciled with the votes: every source raised to the
 * highest last_run it holds on any edge, keys sorted (JS objects list
 * integer-like keys such as "123456" first, in numeric order, whatever is
 * done). A source that has voted on its run N has driven at least N runs.
 */
export function reconcileSourceRuns(
  sourceRuns: Readonly<Record<string, number>>,
  edges: readonly Edge[],
): Record<string, number> {
  const marks = new Map<string, number>();
  for (const edge of edges) addWatermarks(marks, edge.votes);
  return raisedTo(sourceRuns, marks);
}

/**
 * {@linkcode reconcileSourceRuns} for edges held as a table: the counters
 * raised to the highest last_run each source holds in `table`, keys sorted.
 */
export function reconcileTableRuns(
  sourceRuns: Readonly<Record<string, number>>,
  table: EdgeTable,
): Record<string, number> {
  const high = new Int32Array(table.sources.length).fill(-1);
  const { voteSource, voteRun } = table;
  for (let v = 0; v < voteSource.length; v++) {
    if (voteRun[v] > high[voteSource[v]]) high[voteSource[v]] = voteRun[v];
  }
  const marks = new Map<string, number>();
  for (let s = 0; s < high.length; s++) if (high[s] >= 0) marks.set(table.sources[s], high[s]);
  return raisedTo(sourceRuns, marks);
}

/** `marks` raised to `sourceRuns` where those are higher, as an object with keys sorted. */
function raisedTo(
  sourceRuns: Readonly<Record<string, number>>,
  marks: Map<string, number>,
): Record<string, number> {
  for (const source in sourceRuns) {
    const runs = sourceRuns[source];
    const mark = marks.get(source);
    if (mark === undefined || runs > mark) marks.set(source, runs);
  }
  const out: Record<string, number> = {};
  for (const source of [...marks.keys()].sort()) out[source] = marks.get(source)!;
  return out;
}

/** The sum of the run counters: what `meta.runs` always equals. */
export function sumRuns(sourceRuns: Readonly<Record<string, number>>): number {
  let total = 0;
  for (const source in sourceRuns) total += sourceRuns[source];
  return total;
}
