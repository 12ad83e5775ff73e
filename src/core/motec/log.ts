/**
 * A MoTeC log as the .ld and .ldx writers see it: laps back to back on one
 * 60 Hz time base, where each lap begins and ends, which lap is fastest, and
 * the words of the header. Shared by both writers so the markers always sit
 * at the samples the data holds.
 *
 * @module
 */
import type { LapSamples } from "../laps/columns.ts";
import type { LapSummary } from "../laps/lap.ts";
import type { LapCoverage } from "../laps/coverage.ts";
import { commentSuffix, lapTimeText } from "../laps/csv.ts";
import { MOTEC_FREQUENCY_HZ } from "./channels.ts";

/** The lap fields and samples a log is written from. */
export type MotecLap =
  & Pick<LapSummary, "number" | "time_ms" | "finished_at">
  & Pick<LapCoverage, "complete" | "samples_expected" | "samples_missing" | "longest_gap_packets">
  & { samples: LapSamples };

/** The words of a log's header, besides what the laps give. */
export interface MotecLogInfo {
  /** The driver's name; "" when unknown. */
  driver: string;
  /** The car's name. */
  vehicle: string;
  /** The circuit's name; "" when unknown. */
  venue: string;
  /** The event, such as "Gran Turismo 7". */
  event: string;
  /** The session, such as "Session 12" or "Lap 3". */
  session: string;
}

/** A log: its laps in driving order and its header words. */
export interface MotecLog extends MotecLogInfo {
  laps: readonly MotecLap[];
}

/** Where each lap sits in the log's samples. */
export interface LapSpan {
  /** Index of the lap's first sample in the log. */
  first: number;
  /** Samples the lap holds. */
  count: number;
}

/** The spans of `laps` laid back to back from sample 0. */
export function lapSpans(laps: readonly MotecLap[]): LapSpan[] {
  let first = 0;
  return laps.map((l) => {
    const span = { first, count: l.samples.t.length };
    first += span.count;
    return span;
  });
}

/**
 * Marker times of the log, microseconds from its first sample: one at the
 * end of every lap, where the car crossed the line (every stored lap ends at
 * a crossing). Sample k lies at k/60 s, so a lap's end is the time of the
 * sample after its last, rounded to the microsecond; the start of the first
 * lap is the start of the log, which i2 counts as a lap's start by itself.
 */
export function beaconTimesUs(laps: readonly MotecLap[]): number[] {
  return lapSpans(laps).map((s) => Math.round((s.first + s.count) * 1e6 / MOTEC_FREQUENCY_HZ));
}

/**
 * Index (0-based) of the fastest complete lap, the one i2 shows as fastest;
 * the earliest on a tie; null when no lap is complete.
 */
export function fastestLapIndex(laps: readonly MotecLap[]): number | null {
  let best: number | null = null;
  laps.forEach((l, i) => {
    if (l.complete && (best === null || l.time_ms < laps[best].time_ms)) best = i;
  });
  return best;
}

/**
 * One line a lap: `Lap <n> - M:SS.mmm`, followed for an incomplete lap by
 * the coverage note (`- incomplete: 120 of 5942 samples missing, ...`).
 */
export function lapLine(lap: MotecLap): string {
  return `Lap ${lap.number} - ${lapTimeText(lap.time_ms)}${commentSuffix(lap)}`;
}

/**
 * The log's comment: every lap's {@linkcode lapLine} joined by "; ", so an
 * incomplete lap is named there with what it lacks.
 */
export function logComment(log: MotecLog): string {
  return log.laps.map(lapLine).join("; ");
}

/**
 * The short comment (at most 63 bytes): the lap line of a one-lap log;
 * otherwise the lap count, the fastest lap and how many are incomplete.
 */
export function shortComment(log: MotecLog): string {
  if (log.laps.length === 1) return lapLine(log.laps[0]);
  const fastest = fastestLapIndex(log.laps);
  const incomplete = log.laps.filter((l) => !l.complete).length;
  let text = `${log.laps.length} laps`;
  if (fastest !== null) {
    text += `, fastest ${lapTimeText(log.laps[fastest].time_ms)} (lap ${log.laps[fastest].number})`;
  }
  if (incomplete > 0) text += `, ${incomplete} incomplete`;
  return text;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * When the log's first sample was taken, UTC: the first lap's finished_at
 * less its lap time; null when finished_at is not an ISO 8601 time.
 */
export function logStart(log: MotecLog): Date | null {
  const first = log.laps[0];
  if (first === undefined || !ISO_TIME.test(first.finished_at)) return null;
  const end = Date.parse(first.finished_at);
  if (Number.isNaN(end)) return null;
  return new Date(end - Math.max(0, first.time_ms));
}
