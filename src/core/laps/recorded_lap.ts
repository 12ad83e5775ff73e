/**
 * Completes a lap the recorder cut: derived metrics and events are computed
 * here, once, so live and imported laps share one definition of each.
 *
 * @module
 */
import type { Lap } from "./lap.ts";
import type { RecordedLap } from "./recorder.ts";
import { computeMetrics } from "./metrics.ts";
import { computeEvents, countEvents } from "./events.ts";
import { judgeCoverage } from "./coverage.ts";

/** A stored-ready lap: everything but the id, session and best-lap verdict. */
export type FinishedLap = Omit<Lap, "id" | "session_id" | "counts_for_best">;

/**
 * Turns a recorder lap into a lap record finished at `finishedAt` (ISO 8601),
 * judging its coverage from the recorder's packet accounting and the game's
 * lap time.
 */
export function finishRecordedLap(rec: RecordedLap, finishedAt: string): FinishedLap {
  const { samples, engine, samples_filled: filled, longest_gap_packets: longestGap, ...fields } =
    rec;
  const events = computeEvents(samples);
  const racePos = samples.race_pos;
  return {
    ...fields,
    ...engine,
    ...computeMetrics(samples, rec.fuel_start, rec.fuel_end),
    ...judgeCoverage({ timeMs: rec.time_ms, samples: samples.t.length, filled, longestGap }),
    finished_at: finishedAt,
    off_survey_count: -1,
    salvaged: false,
    race_position: racePos?.length ? racePos[racePos.length - 1] : -1,
    imported: false,
    events,
    event_counts: countEvents(events),
    samples,
  };
}
