/**
 * How wide a surveyed road is: the median of the compiled centreline's
 * widths (the distance between the left and right borders across each
 * centreline vertex), so a few vertices at a pit entry or a run-off do not
 * move it. Identification takes it as the configuration's road width
 * (docs/identification.md).
 *
 * @module
 */
import { median } from "../median.ts";
import type { CompiledTrack } from "./types.ts";

/**
 * The median road width of `track`'s centreline, metres, over every vertex
 * with a positive finite width; null when it has none (a bundle with one
 * side surveyed has no centreline).
 */
export function medianRoadWidthM(track: Pick<CompiledTrack, "centerline">): number | null {
  const widths: number[] = [];
  for (const run of track.centerline) {
    for (const v of run) if (Number.isFinite(v[3]) && v[3] > 0) widths.push(v[3]);
  }
  return median(widths);
}
