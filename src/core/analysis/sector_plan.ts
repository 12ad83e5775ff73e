/**
 * A circuit's sectors: the bundle's authored sections when it has any,
 * otherwise three sectors split at the corner boundaries nearest to one and
 * two thirds of a lap. Sectors are world positions, like corners, so every
 * lap finds its own split points.
 *
 * @module
 */
import type { Corner, Official, Point, Section } from "../bundle/types.ts";
import { resolveAnchors } from "./anchors.ts";
import { authoredCorners } from "./corners_authored.ts";
import { detectCorners } from "./corners_detect.ts";
import { type LapTrace, valueAt } from "./lap_trace.ts";
import type { LapCorner, SectorDef, SectorPlan } from "./types.ts";

/**
 * Section ends closer than this (to each other, or to the line) are one
 * boundary, so sections laid end to end time the lap with no gap, metres.
 */
export const SECTOR_SNAP_M = 10;

/** The lap's position at distance `d`. */
export function pointAt(trace: LapTrace, d: number): Point {
  return { x: valueAt(trace, trace.samples.pos_x, d), z: valueAt(trace, trace.samples.pos_z, d) };
}

/** Sectors tiling the lap between the line and the given split points, named "Sector n". */
function tiling(
  splits: readonly Point[],
  source: SectorPlan["source"],
  names?: string[],
): SectorPlan {
  const bounds: (Point | null)[] = [null, ...splits, null];
  const sectors: SectorDef[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    sectors.push({
      n: k + 1,
      name: names?.[k] ?? `Sector ${k + 1}`,
      start: bounds[k],
      end: bounds[k + 1],
    });
  }
  return { source, sectors, covers_lap: true };
}

/**
 * Three sectors split at the corner boundaries (entries and exits) of
 * `corners`, located on `trace`, nearest to one and two thirds of its
 * length; at exactly those fractions where the lap has no boundary to
 * offer. The splits are the lap's positions there.
 */
export function defaultSectorPlan(trace: LapTrace, corners: readonly LapCorner[]): SectorPlan {
  const length = trace.length;
  const bounds = corners.flatMap((c) => [c.entry_m, c.exit_m]).filter((d) => d > 0 && d < length);
  const nearest = (target: number, above: number): number => {
    let best: number | null = null;
    for (const d of bounds) {
      if (d > above && (best === null || Math.abs(d - target) < Math.abs(best - target))) best = d;
    }
    return best ?? Math.max(target, above);
  };
  const first = nearest(length / 3, 0);
  let second = nearest((2 * length) / 3, first);
  if (second <= first || second >= length) second = (first + length) / 2;
  return tiling([pointAt(trace, first), pointAt(trace, second)], "default");
}

/**
 * The authored sections as sectors, checked on `trace` (a lap of the
 * circuit): when the first starts at the line, the last ends at it, and each
 * ends where the next starts (all within {@linkcode SECTOR_SNAP_M}), they
 * tile the lap and the plan says so (`covers_lap`), with the shared ends
 * made one point and the line's ends the line itself. Otherwise each
 * section is timed from its start to its end as authored.
 */
export function authoredSectorPlan(trace: LapTrace, sections: readonly Section[]): SectorPlan {
  const at = resolveAnchors(trace, sections.flatMap((s) => [s.start, s.end]));
  const near = (a: number | null, b: number | null) =>
    a !== null && b !== null && Math.abs(a - b) <= SECTOR_SNAP_M;
  let tiles = sections.length > 0 && near(at[0], 0) && near(at[at.length - 1], trace.length);
  for (let k = 0; tiles && k + 1 < sections.length; k++) {
    const gap = Math.hypot(
      sections[k].end.x - sections[k + 1].start.x,
      sections[k].end.z - sections[k + 1].start.z,
    );
    tiles = gap <= SECTOR_SNAP_M && near(at[2 * k + 1], at[2 * k + 2]);
  }
  if (tiles) {
    return tiling(
      sections.slice(0, -1).map((s) => s.end),
      "authored",
      sections.map((s, k) => s.name.trim() || `Sector ${k + 1}`),
    );
  }
  return {
    source: "authored",
    covers_lap: false,
    sectors: sections.map((s, k) => ({
      n: k + 1,
      name: s.name.trim() || `Sector ${k + 1}`,
      start: s.start,
      end: s.end,
    })),
  };
}

/** The hand-authored marks of a circuit's bundle that analysis uses. */
export interface BundleMarks {
  corners?: readonly Corner[] | null;
  sections?: readonly Section[] | null;
  /** The official configuration a person confirmed the circuit is, when known. */
  official?: Official | null;
}

/**
 * The circuit's sectors, laid out on `trace` (normally its best lap): the
 * bundle's sections when it has any, otherwise the default three split at
 * the lap's corners (authored ones when the bundle has them).
 */
export function sectorPlan(trace: LapTrace, bundle: BundleMarks | null = null): SectorPlan {
  if (bundle?.sections && bundle.sections.length > 0) {
    return authoredSectorPlan(trace, bundle.sections);
  }
  const authored = bundle?.corners && bundle.corners.length > 0
    ? authoredCorners(trace, bundle.corners)
    : [];
  // Split at the corners detected on the lap's own line, as sectors always have been, so a
  // circuit's default sectors do not move.
  return defaultSectorPlan(trace, authored.length > 0 ? authored : detectCorners(trace));
}
