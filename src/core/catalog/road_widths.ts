/**
 * How wide a configuration's road is, for telling whether a lap drives on
 * its reference line: a lap is "near the line" within half the road's
 * width plus a margin (docs/identification.md). Most GT7 circuits are
 * about 12 m wide, which with the margin gives the 10 m the matcher was
 * first tuned on; three circuits where drivers were reported to take
 * lines 10 to 18 m from the recorded one are listed wider (estimated).
 *
 * @module
 */
import type { OfficialConfiguration } from "./tracks.ts";

/** Road width of a circuit not listed in {@linkcode ROAD_WIDTHS_M}, metres. */
export const DEFAULT_ROAD_WIDTH_M = 12;

/**
 * Added to half the road's width, metres: the recorded line may run a few
 * metres off the road's middle, and a car running wide a metre or two past
 * its edge.
 */
export const NEAR_MARGIN_M = 4;

/** Most a line's near distance may be, metres (twice the reference index's cell). */
export const MAX_NEAR_M = 20;

/**
 * Circuits whose road is wider than the default, by the catalogue's
 * circuit name, metres. Estimates, not measurements: chosen from issue
 * 24's report that other recorders' laps ran 10-18 m from the recorded
 * line there, on roads reported 12-20 m wide (docs/identification.md says
 * why the project's own data cannot measure them). A surveyed bundle's
 * measured width replaces them (src/app/survey/surveyed_widths.ts).
 */
export const ROAD_WIDTHS_M: Readonly<Record<string, number>> = Object.freeze({
  "Alsace": 16,
  "Autodrome Lago Maggiore": 20,
  "Red Bull Ring": 16,
});

/** The road width of configuration `c`, metres. */
export function roadWidthM(c: OfficialConfiguration): number {
  return ROAD_WIDTHS_M[c.track] ?? DEFAULT_ROAD_WIDTH_M;
}

/**
 * How far from `c`'s reference line a lap position still counts as on
 * it, metres: half the road's width plus {@linkcode NEAR_MARGIN_M}, at
 * most {@linkcode MAX_NEAR_M}.
 */
export function nearDistanceM(c: OfficialConfiguration): number {
  return nearDistanceOfWidthM(roadWidthM(c));
}

/**
 * The near distance of a road `width_m` metres wide, shipped or surveyed:
 * half of it plus {@linkcode NEAR_MARGIN_M}, at most {@linkcode MAX_NEAR_M}.
 * The caller checks the width.
 */
export function nearDistanceOfWidthM(width_m: number): number {
  return Math.min(MAX_NEAR_M, width_m / 2 + NEAR_MARGIN_M);
}
