/**
 * Where the analysis service's laps come from: a port, so the same answers
 * (src/app/analysis/analysis.ts, over the pure engine of src/core/analysis)
 * are given over the logger's store (kv_analysis_laps.ts) and over the
 * team hub's laps (src/app/hub/hub_analysis_laps.ts). The service holds
 * the rules every face shares (which lap is the reference, laps of one
 * circuit, how a listing that moved is read again); the port holds only
 * what a store knows: a lap by id, and which laps count in a car.
 *
 * @module
 */
import type { Lap } from "../../core/laps/lap.ts";
import type { Session } from "../../core/laps/session.ts";
import type { CornerMapSource } from "./corner_maps.ts";

/** A stored lap with its session (on the hub, a session of its own made from its lap file). */
export interface LoadedLap {
  lap: Lap;
  session: Session;
}

/**
 * The laps a sectors, sector times or consistency question takes, as a
 * listing gave them at one moment: a circuit's or a session's.
 */
export interface RankedLaps {
  /** The ids of the laps that count in the car, fastest first (then by id); never empty. */
  rows: readonly { id: number }[];
  /** The track name whose bundle and corners lay the answer out; "" for an unnamed session. */
  track: string;
  /** True when a lap as read is still one the rows stand for (else the listing moved). */
  holds: (loaded: LoadedLap) => boolean;
}

/** What the analysis service reads laps through. */
export interface AnalysisLaps {
  /**
   * Laps `ids` with their sessions, in order, each read once; null where a
   * lap (or its session) is unknown.
   */
  load(ids: readonly number[]): Promise<(LoadedLap | null)[]>;
  /**
   * The laps that count for best of the circuit named `track` in `car`.
   * `most`: how many of the fastest the question reads (consistency's `n`);
   * absent when it reads every one (sectors), which a port may bound.
   *
   * @throws {NotFound} when none does.
   */
  circuitLaps(track: string, car: number, most?: number): Promise<RankedLaps>;
  /**
   * The laps that count of session `id` in `car`.
   *
   * @throws {NotFound} for an unknown session or when none counts;
   *   {BadRequest} where laps have no sessions to ask by (the hub).
   */
  sessionLaps(id: number, car: number): Promise<RankedLaps>;
  /**
   * Called when a listing disagreed with the laps it named twice in a row:
   * mends the listing (the logger rebuilds its lap index; a listing that is
   * never derived has nothing to mend).
   */
  repair(): Promise<void>;
  /**
   * The lap a lap's notes are against by default (see
   * `AnalysisService.defaultReference`), never the lap itself; null when
   * there is none.
   */
  defaultReference(lap: Pick<Lap, "id" | "car_id" | "session_id">, session: Session): Promise<
    number | null
  >;
  /** Where corner maps made from a circuit's best lap come from and are kept. */
  cornerMaps: CornerMapSource;
}
