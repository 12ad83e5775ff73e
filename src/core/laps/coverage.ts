/**
 * Lap coverage: how many samples a lap should have, how many it has, and
 * whether anything beyond the interpolated short gaps is missing. One
 * definition for live laps (from the recorder's packet accounting) and for
 * imported ones (from the samples' time axis and the lap time), so a lap
 * file can never claim a completeness its samples do not show.
 *
 * @module
 */
import { z } from "zod";
import { MAX_FILLED_PACKETS } from "./sample.ts";

/** GT7 sends one packet per rendered frame: 60 a second. */
export const PACKETS_PER_SECOND = 60;

/**
 * A forward packet-id jump above this (10 minutes of packets) is a restart
 * of the stream, not loss; so is any backward jump. Every smaller forward
 * gap is lost packets, counted and kept as time, however long.
 */
export const MAX_PACKET_GAP = 36_000;

/**
 * How far a complete lap's sample count may stand from `samples_expected`.
 *
 * Measured on clean laps: the Suzuka capture holds 5,942 samples for
 * 99,036 ms (5,942.16 ticks), the four Broad Bean Raceway laps 1,963, 1,954,
 * 1,961 and 1,959 for 1,963.32, 1,953.54, 1,960.74 and 1,959.06 ticks, and
 * every synthetic lap exactly its planned ticks: each equals the lap time at
 * 60 Hz, rounded. The Spa capture holds 6,913 for 115,244 ms (6,914.64, so
 * 6,915 expected): it starts two ticks after the line (its first packet's
 * lap clock reads 34 ms), which is the most a clean lap was seen to lack.
 * Rounding alone can move the count by one (the line falls between two
 * ticks); two covers that and the capture's edge. A lost stretch of three
 * packets or more at a lap's edges, or of four or more inside it, is beyond
 * it.
 */
export const SAMPLE_COUNT_TOLERANCE = 2;

/**
 * How much of its lap time a lap's samples cover (the coverage fields of a
 * lap): part of the lap summary's response schema, and through `z.output`
 * the {@linkcode LapCoverage} type.
 */
export const lapCoverageSchema = z.strictObject({
  /** The game's lap time at 60 Hz, rounded: the samples a lap with nothing lost holds. */
  samples_expected: z.int(),
  /** Samples from packets that arrived. */
  samples_received: z.int(),
  /** Samples interpolated across gaps of 1 to {@linkcode MAX_FILLED_PACKETS} lost packets. */
  samples_filled: z.int(),
  /** max(0, samples_expected - samples held): ticks of the lap with no sample. */
  samples_missing: z.int(),
  /** Most packets lost in a row inside the lap; 0 when none, -1 when unknown. */
  longest_gap_packets: z.int(),
  /**
   * True when nothing beyond the interpolated short gaps is missing: no gap
   * longer than {@linkcode MAX_FILLED_PACKETS} packets, and the samples held
   * within {@linkcode SAMPLE_COUNT_TOLERANCE} of `samples_expected`.
   */
  complete: z.boolean(),
});

/** How much of its lap time a lap's samples cover (the coverage fields of a lap). */
export type LapCoverage = z.output<typeof lapCoverageSchema>;

/** The names of the coverage fields, in the order lap files write them. */
export const COVERAGE_FIELDS = [
  "samples_expected",
  "samples_received",
  "samples_filled",
  "samples_missing",
  "longest_gap_packets",
  "complete",
] as const satisfies readonly (keyof LapCoverage)[];

/** The samples a lap of `timeMs` holds when nothing is lost: its time at 60 Hz, rounded. */
export function expectedSamples(timeMs: number): number {
  return Math.round(timeMs * PACKETS_PER_SECOND / 1000);
}

/** What coverage is judged from. */
export interface CoverageFacts {
  /** The game's lap time, ms. */
  timeMs: number;
  /** Samples the lap holds, filled ones included. */
  samples: number;
  /** Of those, samples made by interpolation. */
  filled: number;
  /** Most packets lost in a row inside the lap; -1 when unknown. */
  longestGap: number;
}

/** The coverage of a lap from its facts; `complete` follows the rule of {@linkcode LapCoverage}. */
export function judgeCoverage(facts: CoverageFacts): LapCoverage {
  const expected = expectedSamples(facts.timeMs);
  return {
    samples_expected: expected,
    samples_received: facts.samples - facts.filled,
    samples_filled: facts.filled,
    samples_missing: Math.max(0, expected - facts.samples),
    longest_gap_packets: facts.longestGap,
    complete: facts.longestGap <= MAX_FILLED_PACKETS &&
      Math.abs(facts.samples - expected) <= SAMPLE_COUNT_TOLERANCE,
  };
}

/** What a time axis shows of lost packets. */
export interface AxisGaps {
  /** Most packets lost in a row. */
  longest: number;
  /** Packets lost in all. */
  missing: number;
}

/**
 * The gaps a sample time axis shows: a step of k/60 s between two samples
 * means k - 1 packets never arrived. Interpolated gaps leave no step, so
 * only unfilled gaps (longer than {@linkcode MAX_FILLED_PACKETS}) are seen.
 * As in live recording, a step back, none, or one of more than
 * {@linkcode MAX_PACKET_GAP} packets is no loss (the sample count against
 * the lap time still shows what such a lap lacks).
 */
export function timeAxisGaps(t: readonly number[]): AxisGaps {
  let longest = 0;
  let missing = 0;
  for (let i = 1; i < t.length; i++) {
    const gap = Math.round((t[i] - t[i - 1]) * PACKETS_PER_SECOND) - 1;
    if (!(gap > 0 && gap <= MAX_PACKET_GAP)) continue;
    missing += gap;
    if (gap > longest) longest = gap;
  }
  return { longest, missing };
}

/**
 * The coverage of a lap stored before laps carried it: judged from its
 * sample count and lap time alone, with the interpolated samples and the
 * longest gap unknown (filled 0, longest gap -1).
 */
export function legacyCoverage(lap: { time_ms: number; total_ticks: number }): LapCoverage {
  return judgeCoverage({
    timeMs: lap.time_ms,
    samples: lap.total_ticks,
    filled: 0,
    longestGap: -1,
  });
}

/**
 * What an incomplete lap lacks, in words: `incomplete: ` and
 * {@linkcode lackText}; "" for a complete lap.
 */
export function coverageNote(lap: NoteFacts, held: number): string {
  return lap.complete ? "" : `incomplete: ${lackText(lap, held)}`;
}

/** The coverage fields a note is written from. */
export type NoteFacts = Pick<
  LapCoverage,
  "complete" | "samples_expected" | "samples_missing" | "longest_gap_packets"
>;

/**
 * What a lap lacks against its lap time: `<missing> of <expected> samples
 * missing`, then `, longest gap <g> packets` when a gap was too long to
 * fill; or, for a lap holding more samples than its time allows, `<held>
 * samples for <expected> expected`. `held` is the samples the lap holds
 * (its `total_ticks`).
 */
export function lackText(lap: NoteFacts, held: number): string {
  const gap = lap.longest_gap_packets > MAX_FILLED_PACKETS
    ? `, longest gap ${lap.longest_gap_packets} packets`
    : "";
  return lap.samples_missing > 0
    ? `${lap.samples_missing} of ${lap.samples_expected} samples missing${gap}`
    : `${held} samples for ${lap.samples_expected} expected${gap}`;
}
