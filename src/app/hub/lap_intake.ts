/**
 * What the hub stores for a pushed lap file, every column derived from the
 * lap itself, never from a client's word: the lap rebuilt as the logger's
 * own import rebuilds it (src/core/laps/lap_file.ts: metrics, events and
 * coverage recomputed), the circuit's slug by the core slug code, and the
 * lap's sector times by the core sector code. Its content hash keys it.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { circuitOf } from "../../core/bundle/slug.ts";
import type { Section } from "../../core/bundle/types.ts";
import { carName, isKnownCar } from "../../core/catalog/cars.ts";
import { presentColumns } from "../../core/laps/columns.ts";
import type { LapSamples, SampleColumn } from "../../core/laps/columns.ts";
import { buildImportedLap, parseLapFile } from "../../core/laps/lap_file.ts";
import { traceOf } from "../../core/analysis/lap_trace.ts";
import { sectorPlan } from "../../core/analysis/sector_plan.ts";
import { lapSectorTimes } from "../../core/analysis/sectors.ts";
import { encodeSamples } from "../../storage/lap_codec.ts";
import type { NewLapRow } from "../../storage/hub/laps.ts";

/** `samples`' present columns in canonical order: how a lap's content is hashed and stored. */
export function canonicalSamples(samples: LapSamples): LapSamples {
  const out: Partial<Record<SampleColumn, number[]>> = {};
  for (const c of presentColumns(samples)) out[c] = samples[c];
  return out as LapSamples;
}

/**
 * The SHA-256 (hex) of a lap's content: its lap time, car, circuit name and
 * finish time, then its samples as float64 columns in canonical order. The
 * exporting logger's ids are no part of it, so one lap exported twice, or
 * from two loggers, hashes alike.
 */
export function contentHash(
  lap: { time_ms: number; car_id: number; track_name: string; finished_at: string },
  samples: Uint8Array,
): string {
  const head = JSON.stringify([lap.time_ms, lap.car_id, lap.track_name, lap.finished_at]);
  return createHash("sha256").update(head).update(samples).digest("hex");
}

/**
 * The lap's time through each sector, ms, when it is complete at a named
 * circuit and every sector can be timed: the sectors are the circuit's
 * bundle's `sections` when it has any (world positions, the same for every
 * lap), else the default three laid on the lap itself. Null otherwise.
 */
export function sectorTimesOf(
  lap: { time_ms: number; samples: LapSamples },
  sections: readonly Section[] | null,
): number[] | null {
  try {
    const trace = traceOf(lap.samples);
    const plan = sectorPlan(trace, { sections });
    if (!plan.covers_lap) return null;
    const times = lapSectorTimes({ id: 0, ...lap }, plan, trace).times_s;
    if (times.some((t) => t === null)) return null;
    return times.map((t) => Math.round(t! * 1000));
  } catch {
    // A lap the trace code cannot lay out (too short, standing still) has no sectors.
    return null;
  }
}

/**
 * The row of lap file `json` pushed by `driver`; `sectionsOf` answers a
 * circuit's authored sections (null: none).
 *
 * @throws {ImportRejected} as the logger's import refuses a lap file, each
 *   failure with its JSON path; nothing is stored then.
 */
export async function lapRowOf(
  json: unknown,
  driver: string,
  sectionsOf: (circuit: string) => Promise<readonly Section[] | null> = () => Promise.resolve(null),
): Promise<NewLapRow> {
  const parsed = parseLapFile(json);
  const { samples: _s, counts_for_best: _c, ...fields } = buildImportedLap(parsed);
  const samples = canonicalSamples(parsed.samples);
  const encoded = encodeSamples(samples);
  const circuit = circuitOf(parsed.track_name);
  const carLabel = isKnownCar(parsed.car_id) || parsed.car_name === ""
    ? carName(parsed.car_id)
    : parsed.car_name;
  return {
    driver,
    content_hash: contentHash(parsed, encoded),
    circuit,
    track_name: parsed.track_name,
    car_id: parsed.car_id,
    time_ms: parsed.time_ms,
    finished_at: parsed.finished_at,
    complete: fields.complete,
    sector_ms: fields.complete && circuit !== null
      ? sectorTimesOf({ time_ms: parsed.time_ms, samples }, await sectionsOf(circuit))
      : null,
    fields: { ...fields, car_name: carLabel },
    samples: encoded,
  };
}
