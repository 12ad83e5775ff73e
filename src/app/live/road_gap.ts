/**
 * The gap from the first metre of an unnamed session's lap (#41): while
 * live naming still hesitates between layouts whose roads agree so far,
 * the best lap in this car of each standing layout that has one is read in
 * the background and followed as a road (road_candidates.ts), and the gap
 * runs against one the car is on, saying so ("your best of Suzuka Circuit /
 * East Course (same road so far)"). Once the session is named the live
 * frames take that circuit's best; until that reference is read, the road
 * picked carries on if it is of the circuit named; so does it when every
 * layout fell (the car is off the reference lines, yet on its own best's).
 *
 * Per frame it only looks up what is already read: a lap missing is asked
 * for through `schedule`, never waited for.
 *
 * @module
 */
import type { Frame } from "../../core/gt7/frame.ts";
import type { StandingName } from "../../core/identify/live_match.ts";
import { circuitOf } from "../../core/bundle/slug.ts";
import { NotFound } from "../../core/errors.ts";
import type { BestItem } from "../laps/lap_listing.ts";
import type { SessionService } from "../laps/sessions.ts";
import type { LiveNaming } from "./live_naming.ts";
import { type LiveReference, liveReference, type ReferenceServices } from "./live_reference.ts";
import { ownLabel, sameRoadLabel } from "./reference_label.ts";
import { RoadCandidates } from "./road_candidates.ts";

/** What the road gap reads. */
export interface RoadGapServices extends ReferenceServices {
  sessions: Pick<SessionService, "lap">;
  naming: Pick<LiveNaming, "candidates">;
}

/** A gap to a road candidate's best lap. */
export interface RoadMeasure {
  ref: LiveReference;
  label: string;
  deltaMs: number;
  /** The reference sample nearest the car. */
  index: number;
}

interface Wanted {
  names: readonly StandingName[];
  car: number;
  version: number;
  refs: LiveReference[];
  /** Each wanted lap's id, with its label. */
  labels: Map<number, string>;
}

/** The gap while naming hesitates; one per live frame service. */
export class RoadGaps {
  readonly #services: RoadGapServices;
  readonly #schedule: (task: () => Promise<void>) => void;
  #bests = new Map<string, BestItem>();
  #refs = new Map<number, LiveReference>();
  #loading = new Set<number>();
  /** Moves on whenever bests or read laps change, so what was wanted is worked out again. */
  #version = 0;
  #wanted: Wanted | null = null;
  #roads = new RoadCandidates();
  #label: string | null = null;

  /** Reads laps through `services`, in tasks handed to `schedule` (the frames' background queue). */
  constructor(services: RoadGapServices, schedule: (task: () => Promise<void>) => void) {
    this.#services = services;
    this.#schedule = schedule;
  }

  /** Takes every circuit and car's best as just read. */
  setBests(bests: readonly BestItem[]): void {
    this.#bests = new Map(bests.map((b) => [`${b.circuit} ${b.car_id}`, b]));
    this.#version++;
  }

  /** A new session: laps read for the old one are let go. */
  forget(): void {
    this.#refs.clear();
    this.#version++;
    this.#roads.restart();
  }

  /** A new lap: every road stands again. */
  restart(): void {
    this.#roads.restart();
  }

  /** Where the car was last matched on reference `key`, for a gap moving onto that lap. */
  hintOf(key: string): number | null {
    return this.#roads.hintOf(key);
  }

  /** The layouts `frame`'s lap may still be, or null when naming is not hesitating over it. */
  candidates(frame: Frame): readonly StandingName[] | null {
    return this.#services.naming.candidates(frame);
  }

  /**
   * The gap for `frame`, `clockMs` and `distanceM` into its lap and
   * `movedM` on since the last frame, against the road it is on among the bests of `names`; with
   * `names` null (naming settled on `named`, whose best is not read yet)
   * against the road picked before, if it is of circuit `named`. Null when
   * it is on none.
   */
  measure(
    names: readonly StandingName[] | null,
    frame: Frame,
    clockMs: number,
    distanceM: number,
    movedM: number,
    named: string | null,
  ): RoadMeasure | null {
    let refs: LiveReference[] | null = null;
    let labels: Map<number, string> | null = null;
    // Every line left behind (a driver off the recorded lines by more than they allow): the
    // road picked, whose own lap is nearer the driver's line, carries on while the car is on it.
    if (names !== null && names.length > 0) {
      const wanted = this.#want(names, frame.carId);
      refs = wanted.refs;
      labels = wanted.labels;
    } else {
      const pick = this.#roads.picked;
      if (pick === null || (named !== null && pick.circuit !== named)) return null;
    }
    const gap = this.#roads.measure(refs, {
      x: frame.posX,
      z: frame.posZ,
      clockMs,
      distanceM,
      movedM,
    });
    if (gap === null) return null;
    if (labels !== null) this.#label = labels.get(gap.ref.lapId ?? 0) ?? gap.ref.label;
    return { ...gap, label: this.#label ?? gap.ref.label };
  }

  /** The read best laps of `names` in car `car`, asking for those not read yet. */
  #want(names: readonly StandingName[], car: number): Wanted {
    const w = this.#wanted;
    if (w !== null && w.names === names && w.car === car && w.version === this.#version) return w;
    const refs: LiveReference[] = [];
    const labels = new Map<number, string>();
    const missing: BestItem[] = [];
    for (const n of names) {
      const circuit = circuitOf(n.name);
      const best = circuit === null ? undefined : this.#bests.get(`${circuit} ${car}`);
      if (best === undefined || labels.has(best.lap_id)) continue;
      const same = names.filter((m) => m.track === n.track).map((m) => m.name);
      labels.set(best.lap_id, sameRoadLabel(same, n.track));
      const ref = this.#refs.get(best.lap_id);
      if (ref !== undefined) refs.push(ref);
      else if (!this.#loading.has(best.lap_id)) missing.push(best);
    }
    if (missing.length > 0) this.#load(missing);
    this.#wanted = { names, car, version: this.#version, refs, labels };
    return this.#wanted;
  }

  #load(bests: BestItem[]): void {
    for (const b of bests) this.#loading.add(b.lap_id);
    this.#schedule(async () => {
      try {
        for (const b of bests) {
          const ref = await this.#read(b);
          if (ref !== null) this.#refs.set(b.lap_id, ref);
        }
      } finally {
        for (const b of bests) this.#loading.delete(b.lap_id);
        this.#version++;
      }
    });
  }

  async #read(b: BestItem): Promise<LiveReference | null> {
    let lap;
    try {
      lap = await this.#services.sessions.lap(b.lap_id);
    } catch (err) {
      if (err instanceof NotFound) return null;
      throw err;
    }
    return await liveReference(lap.samples, {
      key: `lap:${b.lap_id}`,
      lapId: b.lap_id,
      reportId: b.lap_id,
      timeMs: b.time_ms,
      circuit: b.circuit,
      trackName: b.track,
      label: ownLabel(b.track, b.time_ms),
      driver: null,
    }, this.#services);
  }
}
