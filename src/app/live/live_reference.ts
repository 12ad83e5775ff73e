/**
 * A reference lap as the live frames use it: its path and clock for the
 * gap, the circuit's sectors laid out on it, its braking points for the
 * brake marker, and the words that say whose lap it is. Built from the
 * samples alone, so a stored lap of this logger and a teammate's lap from
 * the hub become references the same way.
 *
 * @module
 */
import { BadRequest } from "../../core/errors.ts";
import type { ReferencePath } from "../../core/analysis/live_delta.ts";
import { traceOf } from "../../core/analysis/lap_trace.ts";
import { cornerReport } from "../../core/analysis/corner_report.ts";
import { type BrakePoint, brakePoints } from "../../core/analysis/next_brake.ts";
import { sectorPlan } from "../../core/analysis/sector_plan.ts";
import { sectorBounds } from "../../core/analysis/sectors.ts";
import type { LapSamples } from "../../core/laps/columns.ts";
import type { AnalysisService } from "../analysis/analysis.ts";
import type { BundleService } from "../bundles/bundles.ts";

/** The reference lap as the frames use it. */
export interface LiveReference {
  /** Tells references apart: `lap:ID` for a stored lap, `team:ID` for a hub lap. */
  key: string;
  /** The stored lap's id; null for a lap that is not in this logger's store (a teammate's). */
  lapId: number | null;
  timeMs: number;
  circuit: string | null;
  /** Whose lap and of what, in a short phrase (see reference_label.ts). */
  label: string;
  /** The teammate who drove it; null for the driver's own lap. */
  driver: string | null;
  path: ReferencePath;
  /** The reference's distance at each sample, metres. */
  dist: ArrayLike<number>;
  /** Each sector's start and end on the reference, metres; null where unknown or without a plan. */
  bounds: ([number, number] | null)[] | null;
  /** The reference's braking points (its own corner report), in order; empty when unknown. */
  brakes: BrakePoint[];
  /** The reference's length, metres. */
  length: number;
}

/** What a reference is laid out with: the circuit's bundle marks and corners. */
export interface ReferenceServices {
  bundles: Pick<BundleService, "marks">;
  /** The analysis's corners, so brake markers count the corners the analysis numbers. */
  corners?: Pick<AnalysisService, "cornerSources">;
}

/** Who drove a reference lap and what it is called. */
export interface ReferenceOrigin {
  key: string;
  lapId: number | null;
  /** The lap's id in the corner report's words (a stored lap's id; 0 for another's). */
  reportId: number;
  timeMs: number;
  circuit: string | null;
  /** The track name the circuit's corners are found by. */
  trackName: string;
  label: string;
  driver: string | null;
}

/**
 * The lap of `samples` as a reference: sectors from the circuit's plan and
 * braking points from its corner report, both empty for a lap that never
 * moves (the gap still works on it).
 */
export async function liveReference(
  samples: LapSamples,
  origin: ReferenceOrigin,
  services: ReferenceServices,
): Promise<LiveReference> {
  const { circuit, trackName } = origin;
  let bounds: LiveReference["bounds"] = null;
  let brakes: BrakePoint[] = [];
  try {
    const trace = traceOf(samples, `lap ${origin.reportId}`);
    const marks = await services.bundles.marks(circuit);
    bounds = sectorBounds(trace, sectorPlan(trace, marks));
    // The same corners and brake points GET /api/analysis/corners reports for this lap.
    const corners = circuit !== null && services.corners
      ? await services.corners.cornerSources(trackName, marks)
      : { authored: marks?.corners ?? null, circuit: [] };
    brakes = brakePoints(
      cornerReport(
        { id: origin.reportId, time_ms: origin.timeMs, samples },
        null,
        corners.authored,
        {
          circuit: corners.circuit,
        },
      ).corners,
    );
  } catch (err) {
    if (!(err instanceof BadRequest)) throw err;
  }
  const n = samples.dist.length;
  return {
    key: origin.key,
    lapId: origin.lapId,
    timeMs: origin.timeMs,
    circuit,
    label: origin.label,
    driver: origin.driver,
    path: { t: samples.t, x: samples.pos_x, z: samples.pos_z },
    dist: samples.dist,
    bounds,
    brakes,
    length: n ? samples.dist[n - 1] : 0,
  };
}
