/**
 * Merging one v4 bundle into another (SPEC.md 2.1.3, REFERENCE.md 1.6 and
 * 1.7). One pure function serves import, rename, pull and (with
 * `keepAuthored` and without `reconcileRuns`) survey saves, so every path
 * obeys the same vote rule.
 *
 * @module
 */
import { ImportRejected } from "../errors.ts";
import { pointKey } from "./cell.ts";
import type { BundleTable } from "./edge_table.ts";
import { mergeCells } from "./merge_cells.ts";
import { MAX_EDGES, MAX_FINISH_CROSSINGS, RUN_LIMIT } from "./limits.ts";
import type { Corner, FinishCrossing, Official, Section } from "./types.ts";
import { BUNDLE_FORMAT } from "./types.ts";
import { reconcileSourceRuns, reconcileTableRuns, sumRuns } from "./votes.ts";

/** How a merge is to be done. */
export interface MergeOptions {
  /** The write time, ISO 8601 UTC; becomes `meta.updated_at`. */
  now: string;
  /** A name that replaces the incoming document's `meta.track` (already trimmed). */
  track?: string;
  /**
   * Never take corners, sections or official from `incoming` when a local
   * document exists, even if the local ones are empty (survey saves).
   */
  keepAuthored?: boolean;
  /**
   * Raise each source's run counter to its highest voted run (default true).
   * A survey save passes false: the votes of a run still being driven must not
   * count that run before it ends.
   */
  reconcileRuns?: boolean;
}

/** What a merge did, for the import response. */
export interface MergeReport {
  /** Distinct cells in the local document (0 without one). */
  edgesBefore: number;
  /** Cells in the merged document. */
  edgesAfter: number;
  /** Cells the incoming document added; 0 on a repeated import. */
  addedEdges: number;
  /** Incoming corners were dropped because local ones were kept. */
  cornersKept: boolean;
  /** Incoming sections were dropped because local ones were kept. */
  sectionsKept: boolean;
  /** An incoming official match was dropped because a local one was kept. */
  officialKept: boolean;
}

/** The merged bundle, its edges as a table, and what the merge did. */
export interface TableMergeResult {
  merged: BundleTable;
  report: MergeReport;
}

function mergeCrossings(
  local: readonly FinishCrossing[],
  incoming: readonly FinishCrossing[],
): FinishCrossing[] {
  const list = local.map((c) => ({ ...c }));
  const seen = new Set(list.map((c) => pointKey(c.x, c.z)));
  for (const crossing of incoming) {
    const key = pointKey(crossing.x, crossing.z);
    if (seen.has(key)) continue;
    seen.add(key);
    list.push({ ...crossing });
  }
  return list.slice(-MAX_FINISH_CROSSINGS);
}

function copyCorners(corners: readonly Corner[]): Corner[] {
  return corners.map((c) => ({
    ...c,
    apex: { ...c.apex },
    entry: c.entry && { ...c.entry },
    exit: c.exit && { ...c.exit },
  }));
}

function copySections(sections: readonly Section[]): Section[] {
  return sections.map((s) => ({ ...s, start: { ...s.start }, end: { ...s.end } }));
}

function mergeSourceRuns(
  local: Readonly<Record<string, number>>,
  incoming: Readonly<Record<string, number>>,
): Record<string, number> {
  const out: Record<string, number> = { ...local };
  for (const source in incoming) {
    const prior = out[source];
    out[source] = prior === undefined ? incoming[source] : Math.max(prior, incoming[source]);
  }
  return out;
}

/**
 * Merges `incoming` into `local` (or into nothing) and returns a new
 * bundle. Neither argument is changed; the result shares its authored
 * members' values with nothing, and its edge table with nothing.
 *
 * - Cells merge as {@linkcode mergeCells} says: keyed by (x, z) rounded
 *   half-to-even and side; a cell's first-seen x, z, hx, hz, side, run and
 *   tw stay; y is filled when unknown. Votes merge per kind per source,
 *   advancing only on a later run, and the kind is re-resolved. Order: local
 *   cells, then new cells in incoming order.
 * - Finish crossings: local ones, then incoming ones at a rounded (x, z) not
 *   yet present; the newest 20 are kept.
 * - `source_runs` takes each source's maximum, raised to its vote watermark
 *   (unless `reconcileRuns` is false), keys sorted; `runs` is their sum.
 * - Corners and sections stay when local ones exist, else the incoming ones
 *   apply; `official` stays when non-null, else the incoming one applies.
 *   With `keepAuthored` an existing local document's are always kept.
 * - `meta.track` is `opts.track` if given, else the incoming name;
 *   `updated_at` is `opts.now`.
 *
 * Votes and counters merge as a join: for per-source histories that agree
 * (a later run never carries a smaller count), merging is idempotent,
 * commutative and associative, and merging a document into itself changes
 * nothing but `updated_at`.
 *
 * @throws {ImportRejected} at `$.edges` when the result would hold more than
 *   50,000 cells, or at `$.meta.runs` when the run counters would sum past
 *   1,000,000. Nothing is merged then.
 */
export function mergeTables(
  local: BundleTable | null,
  incoming: BundleTable,
  opts: MergeOptions,
): TableMergeResult {
  const cells = mergeCells(local?.edges ?? null, incoming.edges);
  const edges = cells.table;
  if (edges.length > MAX_EDGES) {
    throw new ImportRejected({
      path: "$.edges",
      message:
        `the merged bundle would hold ${edges.length} edges; the limit is ${MAX_EDGES}, so nothing was merged`,
    });
  }

  const maxRuns = mergeSourceRuns(local?.meta.source_runs ?? {}, incoming.meta.source_runs);
  // A merged entry's last_run is one of the two tables' entries for it, so the
  // merged table's watermarks are those of both documents.
  const sourceRuns = opts.reconcileRuns === false
    ? reconcileSourceRuns(maxRuns, [])
    : reconcileTableRuns(maxRuns, edges);
  const runs = sumRuns(sourceRuns);
  if (runs > RUN_LIMIT) {
    throw new ImportRejected({
      path: "$.meta.runs",
      message: `the merged run counters would sum to ${runs}; the limit is ${RUN_LIMIT}`,
    });
  }

  // With a local document, authored data stays when it exists (always, for survey saves).
  const kept = local !== null && opts.keepAuthored === true;
  const corners = local !== null && (kept || local.corners.length > 0) ? local.corners : null;
  const sections = local !== null && (kept || local.sections.length > 0) ? local.sections : null;
  const localOfficial = local !== null && (kept || local.meta.official !== null)
    ? { value: local.meta.official }
    : null;
  const official: Official | null = localOfficial ? localOfficial.value : incoming.meta.official;

  const merged: BundleTable = {
    format: BUNDLE_FORMAT,
    version: 4,
    meta: {
      track: opts.track ?? incoming.meta.track,
      runs,
      source_runs: sourceRuns,
      updated_at: opts.now,
      official: official && { ...official },
    },
    edges,
    finish_crossings: mergeCrossings(local?.finish_crossings ?? [], incoming.finish_crossings),
    corners: copyCorners(corners ?? incoming.corners),
    sections: copySections(sections ?? incoming.sections),
  };
  return {
    merged,
    report: {
      edgesBefore: cells.before,
      edgesAfter: edges.length,
      addedEdges: edges.length - cells.before,
      cornersKept: corners !== null && incoming.corners.length > 0,
      sectionsKept: sections !== null && incoming.sections.length > 0,
      officialKept: localOfficial !== null && incoming.meta.official !== null,
    },
  };
}
