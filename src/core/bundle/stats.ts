/**
 * The figures an import response reports about a bundle (REFERENCE.md 1.9,
 * plus our `sections_kept` and `official_kept`).
 *
 * @module
 */
import { roundHalfEven } from "./cell.ts";
import { type BundleTable, FIRST_INFERRED_KIND } from "./edge_table.ts";
import type { TableMergeResult } from "./merge.ts";

/** Counts describing one bundle. */
export interface BundleStats {
  /** Cells (edges). */
  points: number;
  /** Cells with a known elevation. */
  elevation_points: number;
  /** elevation_points as a percentage of points, 1 dp; 0 when there are no points. */
  elevation_pct: number;
  /** Cells whose kind is wall, runoff or edge. */
  manual_points: number;
  /** Finish crossings held. */
  finish_crossings: number;
  /** Authored corners held. */
  corners: number;
  /** Authored sections held. */
  sections: number;
  /** Installations with a run counter (every voter has one). */
  sources: number;
}

/** Counts describing an import: the merged bundle's, plus what the merge added and kept. */
export interface ImportStats extends BundleStats {
  /** Cells the import added; 0 on a repeated import. */
  added_points: number;
  /** Incoming corners were dropped because local ones exist. */
  corners_kept: boolean;
  /** Incoming sections were dropped because local ones exist. */
  sections_kept: boolean;
  /** An incoming official match was dropped because a local one exists. */
  official_kept: boolean;
}

/** The counts of one bundle; the kinds read are the table's resolved kinds. */
export function bundleStats(doc: BundleTable): BundleStats {
  let elevation = 0;
  let manual = 0;
  const { y, kind } = doc.edges;
  for (let i = 0; i < doc.edges.length; i++) {
    if (!Number.isNaN(y[i])) elevation++;
    if (kind[i] < FIRST_INFERRED_KIND) manual++;
  }
  const points = doc.edges.length;
  return {
    points,
    elevation_points: elevation,
    elevation_pct: points === 0 ? 0 : roundHalfEven((elevation * 1000) / points) / 10,
    manual_points: manual,
    finish_crossings: doc.finish_crossings.length,
    corners: doc.corners.length,
    sections: doc.sections.length,
    sources: Object.keys(doc.meta.source_runs).length,
  };
}

/** The counts an import response reports for a merge result. */
export function importStats(result: TableMergeResult): ImportStats {
  return {
    ...bundleStats(result.merged),
    added_points: result.report.addedEdges,
    corners_kept: result.report.cornersKept,
    sections_kept: result.report.sectionsKept,
    official_kept: result.report.officialKept,
  };
}
