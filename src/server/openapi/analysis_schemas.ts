/**
 * Zod schemas of the analysis answers (`/api/analysis/*`), checked at
 * compile time against the engine's types (src/core/analysis/types.ts).
 *
 * @module
 */
import { z } from "zod";
import type {
  Comparison,
  Consistency,
  CornerReport,
  SectorBests,
} from "../../core/analysis/types.ts";
import type { SameType } from "./same_type.ts";

const num = z.number();
const side = z.enum(["L", "R"]);

/** The body of `/api/analysis/compare`. */
export const comparisonSchema = z.strictObject({
  distance: z.array(num),
  ref: z.int(),
  laps: z.array(z.strictObject({
    id: z.int(),
    time_ms: num,
    delta_s: z.array(num),
    channels: z.record(z.string(), z.array(num).nullable()),
  })),
}).meta({ id: "Comparison" });

/** The body of `/api/analysis/corners`. */
export const cornerReportSchema = z.strictObject({
  source: z.enum(["authored", "circuit", "lap"]).meta({
    description: "authored: the bundle's corners; circuit: the circuit's corner map (from its " +
      "reference line or best lap), located on the lap; lap: detected on this lap's own line",
  }),
  corners: z.array(z.strictObject({
    n: z.int(),
    name: z.string(),
    direction: side.nullable(),
    apex_m: num,
    entry_m: num,
    exit_m: num,
    apex: z.strictObject({ x: num, z: num }).meta({
      description: "where the lap passed the apex, world metres",
    }),
    entry_kmh: num,
    min_kmh: num,
    exit_kmh: num,
    brake_m: num.nullable(),
    ref_brake_m: num.nullable(),
    time_s: num,
    ref_time_s: num.nullable(),
    delta_s: num.nullable(),
  })),
}).meta({ id: "CornerReport" });

/** The body of `/api/analysis/sectors`. */
export const sectorBestsSchema = z.strictObject({
  source: z.enum(["authored", "default"]),
  sectors: z.array(z.strictObject({
    n: z.int(),
    name: z.string(),
    start_m: num.nullable(),
    end_m: num.nullable(),
    best_s: num.nullable(),
    lap_id: z.int().nullable(),
  })),
  theoretical_best_ms: num.nullable(),
  best_lap_ms: num.nullable(),
  best_lap_id: z.int().nullable(),
}).meta({ id: "SectorBests" });

/** The body of `/api/analysis/consistency`. */
export const consistencySchema = z.strictObject({
  lap_ids: z.array(z.int()),
  lap_times_ms: z.array(num),
  median_lap_id: z.int(),
  median_lap_ms: num,
  time_spread_s: num,
  distance: z.array(num),
  mean_kmh: z.array(num),
  spread_kmh: z.array(num),
  hotspots: z.array(z.strictObject({
    start_m: num,
    end_m: num,
    time_spread_s: num,
    speed_spread_kmh: num,
    corner: z.strictObject({ n: z.int(), name: z.string() }).nullable(),
  })),
}).meta({ id: "Consistency" });

const checks: {
  comparison: SameType<z.output<typeof comparisonSchema>, Comparison>;
  cornerReport: SameType<z.output<typeof cornerReportSchema>, CornerReport>;
  sectorBests: SameType<z.output<typeof sectorBestsSchema>, SectorBests>;
  consistency: SameType<z.output<typeof consistencySchema>, Consistency>;
} = {
  comparison: true,
  cornerReport: true,
  sectorBests: true,
  consistency: true,
};
void checks;
