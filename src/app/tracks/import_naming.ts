/**
 * Naming an imported session as live recording would have named it: each
 * lap, in the order driven, goes through what a live lap goes through. While
 * the session has no name, the lap's positions are fed to live naming's
 * matcher (live_naming.ts), which names it from a reference line as soon as
 * exactly one configuration remains; then, as the live lap hook does at a
 * lap's end, a complete lap is identified by the whole precedence
 * (signatures, bundles, reference lines), or by what the user made known
 * alone once a reference line named it. One set of confidence rules for a
 * lap driven and a lap imported: an import is named exactly when the same
 * laps driven live would have been, with the same `track_source`.
 *
 * @module
 */
import type { Identification } from "../../core/identify/identify.ts";
import type { AnyIdentification } from "../../core/identify/identify_with_references.ts";
import type { ReferenceIndex } from "../../core/identify/reference_index.ts";
import type { LapTrace } from "../../core/identify/signature.ts";
import type { TrackSource } from "../../core/laps/session.ts";
import { matchLapPositions } from "../live/live_naming.ts";

/** A circuit name and what gave it. */
export interface Naming {
  name: string;
  source: Exclude<TrackSource, "" | "user">;
}

/** A lap as naming reads it: its positions and whether packets were lost beyond the filled gaps. */
export interface NamingLap {
  samples: LapTrace;
  complete: boolean;
}

/** The identification naming calls: the track service's. */
export interface NamingJudge {
  /** The reference lines live naming follows (the shipped road widths). */
  warmReferences(): Promise<ReferenceIndex>;
  /** Signatures, then bundles, then reference lines; null when none is sure. */
  identifyLap(trace: LapTrace): Promise<AnyIdentification | null>;
  /** Signatures, then bundles; null when neither is sure. */
  identifyKnown(trace: LapTrace): Promise<Identification | null>;
}

/**
 * The name live recording would have given a session whose laps are `laps`,
 * in the order driven, or null when it would have left it unnamed. Stops
 * reading laps once a signature or a bundle named it: nothing renames that.
 */
export async function nameLaps(
  laps: AsyncIterable<NamingLap> | Iterable<NamingLap>,
  judge: NamingJudge,
): Promise<Naming | null> {
  const index = await judge.warmReferences();
  let naming: Naming | null = null;
  for await (const lap of laps) {
    naming = await afterLap(naming, lap, judge, index);
    if (naming !== null && naming.source !== "reference") break;
  }
  return naming;
}

/** The session's name once `lap` was driven, starting from `naming`. */
async function afterLap(
  naming: Naming | null,
  lap: NamingLap,
  judge: NamingJudge,
  index: ReferenceIndex,
): Promise<Naming | null> {
  if (naming === null) {
    const live = matchLapPositions(index, lap.samples);
    if (live !== null) naming = { name: live.name, source: "reference" };
  }
  // The lap hook's rule: an incomplete lap is never matched whole.
  if (!lap.complete) return naming;
  const found = naming === null
    ? await judge.identifyLap(lap.samples)
    : await judge.identifyKnown(lap.samples);
  return found === null ? naming : { name: found.name, source: found.by };
}
