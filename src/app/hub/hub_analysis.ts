/**
 * The team hub's analysis: the logger's {@linkcode AnalysisService} (the
 * same rules and the same engine, src/core/analysis) over the hub's laps
 * (hub_analysis_laps.ts), with each circuit's marks (authored corners,
 * sections, confirmed official match) taken from the team bundle.
 *
 * @module
 */
import type { BundleMarks } from "../../core/analysis/sector_plan.ts";
import { AnalysisService } from "../analysis/analysis.ts";
import { HubAnalysisLaps } from "./hub_analysis_laps.ts";
import type { HubLapSource } from "./hub_analysis_source.ts";

/**
 * The marks of circuit `slug` from its team bundle as `source.bundle`
 * gives it; null for an unnamed circuit or one without a team bundle.
 */
export async function hubBundleMarks(
  source: Pick<HubLapSource, "bundle">,
  slug: string | null,
): Promise<BundleMarks | null> {
  if (slug === null) return null;
  const found = await source.bundle(slug);
  return found && {
    corners: found.corners,
    sections: found.sections,
    official: found.meta.official,
  };
}

/** The analysis service of a hub whose laps and bundles `source` gives. */
export function hubAnalysis(source: HubLapSource): AnalysisService {
  return new AnalysisService({ laps: new HubAnalysisLaps(source) }, {
    bundles: { marks: (slug) => hubBundleMarks(source, slug) },
  });
}
