/**
 * The test oracle that merges documents of edge objects: `mergeTables`
 * over tables made from the documents, handed back as a document. The
 * engine merges tables only; tests written against documents use this.
 *
 * @module
 */
import { type MergeOptions, type MergeReport, mergeTables } from "../src/core/bundle/merge.ts";
import { docOf, tableBundleOf } from "../src/core/bundle/table_convert.ts";
import type { BundleV4 } from "../src/core/bundle/types.ts";

/** The merged document and what the merge did. */
export interface MergeResult {
  merged: BundleV4;
  report: MergeReport;
}

/**
 * {@linkcode mergeTables} for documents of edge objects: the same rules,
 * the same result, with the merged edges as fresh objects.
 *
 * @throws {ImportRejected} as `mergeTables` does.
 */
export function merge(
  local: BundleV4 | null,
  incoming: BundleV4,
  opts: MergeOptions,
): MergeResult {
  const { merged, report } = mergeTables(
    local && tableBundleOf(local),
    tableBundleOf(incoming),
    opts,
  );
  return { merged: docOf(merged), report };
}
