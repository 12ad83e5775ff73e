/**
 * Border coverage in words that say what was covered of what. A side whose
 * cells close into a loop has a share of the whole lap; an open side's
 * percentage is only of the stretch its own cells span (a few seconds of one
 * mark reads 100 %), so it is given as the metres surveyed instead, with no
 * percentage until the loop closes.
 *
 * @module
 */
import type { SideCoverage } from "../core/geometry/types.ts";

/**
 * One side's coverage: `98.3% of the lap` when closed, `412 m surveyed, open`
 * when not, `nothing surveyed` with no evidence.
 */
export function sideCoverageText(
  side: Pick<SideCoverage, "pct" | "closed" | "surveyed_m">,
): string {
  if (side.closed) return `${side.pct.toFixed(1)}% of the lap`;
  if (side.surveyed_m <= 0) return "nothing surveyed";
  return `${Math.round(side.surveyed_m)} m surveyed, open`;
}

/**
 * One side in a list column of 13 characters, from a percentage and whether
 * the side closes: `98.3% closed` when closed, else `open` (no percentage:
 * it would be of the stretch, not of a lap).
 */
export function sideColumn(pct: number, closed: boolean): string {
  return closed ? `${pct.toFixed(1)}% closed` : "open";
}
