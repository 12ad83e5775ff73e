/**
 * The live frames every face shows ({@linkcode LiveFrameSource}): each
 * telemetry frame of the live session, with where the car is in its lap,
 * the gap to the reference lap, the sector, and the fuel strategy.
 *
 * Per frame (synchronously, in the live service's frame tap) the lap's
 * distance and clock are integrated exactly as the lap recorder integrates
 * a stored lap's `dist` and `t` (so a frame's `distance_m` and
 * `lap_clock_ms` are the stored lap's at that sample), and the gap is taken
 * to the reference's path (src/core/analysis/live_delta.ts). The reference
 * is the fastest complete lap at this circuit in this car: the circuit's
 * best from the bests, or the live session's own best lap when that is
 * faster or the session is unnamed. It and the session's fuel figures are
 * read in the background on every `session`, `lap` and `bundle` event;
 * a frame never waits for the store.
 *
 * Frames are thinned by packet id, never by the wall clock: a subscriber at
 * `hz` gets a frame whenever `floor(packet_id * hz / 60)` moves on, so
 * every second of console time gives it `hz` frames, whatever the load.
 *
 * @module
 */
import { BadRequest, type Issue, NotFound } from "../../core/errors.ts";
import { FLAG, type Frame } from "../../core/gt7/frame.ts";
import { deltaToTrace, type ReferencePath } from "../../core/analysis/live_delta.ts";
import { traceOf } from "../../core/analysis/lap_trace.ts";
import { cornerReport } from "../../core/analysis/corner_report.ts";
import type { AnalysisService } from "../analysis/analysis.ts";
import { type BrakePoint, brakePoints, nextBrake } from "../../core/analysis/next_brake.ts";
import { sectorPlan } from "../../core/analysis/sector_plan.ts";
import { sectorBounds } from "../../core/analysis/sectors.ts";
import {
  fuelStrategy,
  type LapStats,
  lapStats,
  raceStrategy,
} from "../../core/analysis/strategy.ts";
import { circuitOf } from "../../core/bundle/slug.ts";
import { MAX_PACKET_GAP } from "../../core/laps/coverage.ts";
import type { LapSummary } from "../../core/laps/lap.ts";
import type { Session } from "../../core/laps/session.ts";
import type { BundleService } from "../bundles/bundles.ts";
import type { AppDeps } from "../deps.ts";
import type { LiveFrame, LiveFrameSource, RaceStrategy } from "./live_frame.ts";
import type { LiveCue, LiveCues } from "./live_cue.ts";
import { checkFrameRate, MAX_HZ } from "./frame_rate.ts";
import type { LiveService } from "./live.ts";
import type { SessionService } from "../laps/sessions.ts";
import type { HubMessages } from "../hub_link/hub_messages.ts";

/** Longest race `strategy` plans, laps. */
export const MAX_RACE_LAPS = 1000;
/** Longest race `strategy` plans, minutes (24 hours). */
export const MAX_RACE_MINUTES = 1440;

/** What the live frames read and follow. */
export interface LiveFrameServices {
  live: Pick<LiveService, "tap" | "epoch" | "session">;
  sessions: Pick<SessionService, "laps" | "lap" | "bests">;
  /** The circuit's bundle, for its authored corners and sections (the sector plan). */
  bundles: Pick<BundleService, "marks">;
  /** The cue before the corner, when the app gives cues. */
  cues?: Pick<LiveCues, "at">;
  /**
   * The circuit's corners as the analysis lays them, so the brake marker
   * counts down to the same numbered corners `GET /api/analysis/corners`
   * reports; without it the reference lap's own corners are used.
   */
  corners?: Pick<AnalysisService, "cornerSources">;
  /** The team hub's message to the driver, when the logger shares live (src/app/hub_link/hub_messages.ts). */
  messages?: Pick<HubMessages, "current">;
}

/** The reference lap as the frames use it. */
interface Reference {
  lapId: number;
  timeMs: number;
  circuit: string | null;
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

/** One frame with what was derived from it when it arrived. */
interface Derived {
  frame: Frame;
  at: Date;
  distance: number;
  clockMs: number;
  deltaMs: number | null;
  sector: number | null;
  /** Metres along the reference where the car is matched; null off its line or without one. */
  along: number | null;
  ref: Reference | null;
  stats: LapStats;
  cue: LiveCue | null;
  built: LiveFrame | null;
}

interface Group {
  hz: number;
  /** The last bucket (`floor(packet_id * hz / 60)`) a frame went out in. */
  last: number | null;
  fns: Set<(frame: LiveFrame) => void>;
}

const NO_STATS: LapStats = { laps_used: 0, fuel_per_lap: null, lap_time_ms: null };

/** Live frames over the app's live session; built once in create_app.ts. */
export class LiveFrameService implements LiveFrameSource {
  readonly #live: LiveFrameServices["live"];
  readonly #sessions: LiveFrameServices["sessions"];
  readonly #bundles: LiveFrameServices["bundles"];
  readonly #cues: LiveFrameServices["cues"];
  readonly #corners: LiveFrameServices["corners"];
  readonly #messages: LiveFrameServices["messages"];
  readonly #now: () => Date;
  readonly #log: AppDeps["log"];
  readonly #groups = new Map<number, Group>();
  readonly #detach: (() => void)[] = [];
  // Where the car is in its lap, mirrored from the lap recorder's rules.
  #epoch = -1;
  #lapKey = "";
  #lastPid: number | null = null;
  #ticks = 0;
  #distance = 0;
  #hint: number | null = null;
  #latest: Derived | null = null;
  // Read in the background.
  #ref: Reference | null = null;
  #stats: LapStats = NO_STATS;
  #generation = 0;
  #pending: Promise<void> = Promise.resolve();
  #closed = false;

  /** Follows `services.live`'s frames and the bus from now on, until {@linkcode close}. */
  constructor(deps: Pick<AppDeps, "bus" | "now" | "log">, services: LiveFrameServices) {
    this.#live = services.live;
    this.#sessions = services.sessions;
    this.#bundles = services.bundles;
    this.#cues = services.cues;
    this.#corners = services.corners;
    this.#messages = services.messages;
    this.#now = deps.now;
    this.#log = deps.log;
    this.#detach.push(this.#live.tap((frame) => this.#onFrame(frame)));
    this.#detach.push(deps.bus.subscribe((event) => {
      if (event.type === "session" || event.type === "lap") this.#reload(false, event.session);
      else if (event.type === "bundle" && event.slug === this.#ref?.circuit) {
        this.#reload(true, null);
      }
    }));
  }

  /**
   * Stops following frames and events; subscribers get nothing more, and
   * background reads not yet started never start. Await
   * {@linkcode settled} before closing the store, for one already reading.
   */
  close(): void {
    for (const detach of this.#detach.splice(0)) detach();
    this.#groups.clear();
    this.#closed = true;
    this.#generation++;
  }

  /** Resolves once the background reads started so far have finished. */
  settled(): Promise<void> {
    return this.#pending;
  }

  /** The newest frame, or null before any telemetry in this process. */
  latest(): LiveFrame | null {
    return this.#latest ? this.#build(this.#latest) : null;
  }

  /**
   * Calls `fn` with every frame whose packet id starts a new 1/`hz` of a
   * second of console time (`floor(packet_id * hz / 60)` changes; a
   * repeated packet never does). `hz` is a whole number from 1 to 60, else
   * {@linkcode BadRequest} on path `hz`. Returns the unsubscriber.
   */
  subscribe(hz: number, fn: (frame: LiveFrame) => void): () => void {
    checkFrameRate(hz);
    let group = this.#groups.get(hz);
    if (!group) {
      group = { hz, last: null, fns: new Set() };
      this.#groups.set(hz, group);
    }
    group.fns.add(fn);
    return () => {
      group.fns.delete(fn);
      if (group.fns.size === 0 && this.#groups.get(hz) === group) this.#groups.delete(hz);
    };
  }

  /**
   * The plan for a race of `race_laps` laps or `race_minutes` minutes
   * (exactly one; whole numbers from 1 to {@linkcode MAX_RACE_LAPS} or
   * {@linkcode MAX_RACE_MINUTES}) from the live session's laps and the
   * newest frame (see src/core/analysis/strategy.ts). Without telemetry or
   * laps the derived fields are null.
   *
   * @throws {BadRequest} naming `race_laps` or `race_minutes` and the rule.
   */
  async strategy(race: { race_laps?: number; race_minutes?: number }): Promise<RaceStrategy> {
    checkRace(race);
    const session = this.#live.session;
    const laps = session ? await this.#lapsOf(session) : [];
    const latest = this.#latest;
    const car = session?.car_id ?? latest?.frame.carId ?? null;
    const stats = car === null ? NO_STATS : lapStats(laps, car);
    const mine = latest !== null && latest.frame.carId === car;
    return raceStrategy(stats, { laps: race.race_laps, minutes: race.race_minutes }, {
      lap: mine ? latest.frame.currentLap : null,
      lap_clock_ms: mine ? latest.clockMs : null,
      fuel: mine ? round(latest.frame.fuelLevel, 3) : null,
    });
  }

  #onFrame(frame: Frame): void {
    const pid = frame.packetId;
    const last = this.#lastPid;
    this.#lastPid = pid;
    const gap = last === null ? 1 : pid - last;
    if (gap === 0 || frame.flags & FLAG.loading) return;
    if (this.#live.epoch !== this.#epoch) {
      // A new session (a car change, the counter dropping): nothing read for the old one holds.
      this.#epoch = this.#live.epoch;
      this.#ref = null;
      this.#stats = NO_STATS;
      this.#generation++;
    }
    this.#advance(frame, gap);
    const ref = this.#ref;
    let deltaMs: number | null = null;
    let along = this.#distance;
    let matched: number | null = null;
    if (ref && frame.currentLap >= 1 && this.#ticks > 0) {
      const d = deltaToTrace(ref.path, frame.posX, frame.posZ, this.#clock(frame), this.#hint);
      if (d) {
        this.#hint = d.index;
        deltaMs = Math.round(d.deltaMs);
        along = ref.dist[d.index];
        matched = along;
      }
    }
    const derived: Derived = {
      frame,
      at: this.#now(),
      distance: this.#distance,
      clockMs: this.#clock(frame),
      deltaMs,
      sector: ref?.bounds ? sectorAt(ref.bounds, along) : null,
      along: matched,
      ref,
      stats: this.#stats,
      cue: this.#cues?.at(this.#live.session?.id ?? null, frame.currentLap, this.#distance) ?? null,
      built: null,
    };
    this.#latest = derived;
    for (const group of this.#groups.values()) {
      const bucket = Math.floor(pid * group.hz / MAX_HZ);
      if (bucket === group.last) continue;
      group.last = bucket;
      const built = this.#build(derived);
      for (const fn of group.fns) {
        try {
          fn(built);
        } catch (err) {
          this.#log.error("live frame subscriber failed", err);
        }
      }
    }
  }

  /** Moves the lap's distance and clock on by `frame`, `gap` packets after the last one. */
  #advance(frame: Frame, gap: number): void {
    const key = `${this.#epoch}:${frame.carId}:${frame.currentLap}`;
    if (key !== this.#lapKey) {
      this.#lapKey = key;
      this.#ticks = 0;
      this.#distance = 0;
      this.#hint = null;
    }
    // The recorder samples no paused frame and nothing after the race's last lap.
    const sampled = !(frame.flags & FLAG.paused) && frame.currentLap >= 0 &&
      !(frame.totalLaps > 0 && frame.currentLap > frame.totalLaps);
    if (!sampled) return;
    const frames = this.#ticks === 0 || gap < 1 || gap > MAX_PACKET_GAP ? 1 : gap;
    this.#ticks += frames;
    this.#distance += frame.speed * frames / 60;
  }

  /** Time into the lap, ms: the game's lap clock when the packet has it, else its ticks. */
  #clock(frame: Frame): number {
    return frame.surface ? frame.surface.lapTimeMs : this.#ticks * 1000 / 60;
  }

  #build(d: Derived): LiveFrame {
    if (d.built) return d.built;
    const f = d.frame;
    const strategy = fuelStrategy(d.stats, f.fuelLevel);
    const ref = d.ref;
    d.built = {
      packet_id: f.packetId,
      at: d.at.toISOString(),
      speed_kmh: round(f.speed * 3.6, 1),
      gear: f.gear === 15 ? 0 : f.gear,
      suggested_gear: f.suggestedGear === 15 ? null : f.suggestedGear,
      rpm: Math.round(f.engineRpm),
      rev_limit: (f.flags & FLAG.revLimiter) !== 0,
      rpm_alert: { min: Math.round(f.rpmAlertMin), max: Math.round(f.rpmAlertMax) },
      throttle_pct: round(f.throttle / 2.55, 1),
      brake_pct: round(f.brake / 2.55, 1),
      clutch: round(f.clutch, 3),
      boost_bar: round(f.boostRaw - 1, 3),
      fuel: round(f.fuelLevel, 3),
      fuel_capacity: round(f.fuelCapacity, 3),
      fuel_laps_left: strategy.laps_to_empty,
      water_temp_c: round(f.waterTemp, 1),
      oil_temp_c: round(f.oilTemp, 1),
      oil_pressure_bar: round(f.oilPressure, 2),
      tyre_temp_c: [
        round(f.tyreTemp[0], 1),
        round(f.tyreTemp[1], 1),
        round(f.tyreTemp[2], 1),
        round(f.tyreTemp[3], 1),
      ],
      aids: { tcs: (f.flags & FLAG.tcs) !== 0, asm: (f.flags & FLAG.asm) !== 0 },
      position: { x: round(f.posX, 2), y: round(f.posY, 2), z: round(f.posZ, 2) },
      distance_m: round(d.distance, 1),
      lap: f.currentLap,
      lap_clock_ms: Math.round(d.clockMs),
      race_position: f.racePosition >= 1 ? f.racePosition : null,
      total_positions: f.racePosition >= 1 && f.totalPositions >= 1 ? f.totalPositions : null,
      delta: {
        delta_ms: d.deltaMs,
        predicted_lap_ms: d.deltaMs !== null && ref ? ref.timeMs + d.deltaMs : null,
        reference_lap_id: ref?.lapId ?? null,
        reference_lap_ms: ref?.timeMs ?? null,
      },
      sector: d.sector,
      strategy,
      cue: d.cue,
      next_brake: ref && d.along !== null ? nextBrake(ref.brakes, d.along, ref.length) : null,
      message: this.#messages?.current() ?? null,
    };
    return d.built;
  }

  /** Reads the reference and the fuel figures again, after every read queued before. */
  #reload(replan: boolean, announced: Session | null): void {
    const generation = ++this.#generation;
    this.#pending = this.#pending.then(async () => {
      if (generation !== this.#generation) return;
      try {
        const read = await this.#read(replan, announced);
        // A newer read was asked for, or the session changed meanwhile: this one is stale.
        if (generation !== this.#generation) return;
        this.#ref = read.ref;
        if (this.#ref?.lapId !== this.#latest?.ref?.lapId) this.#hint = null;
        this.#stats = read.stats;
      } catch (err) {
        // Once closed, the answer was not wanted: a store closing under it is no fault.
        if (!this.#closed) this.#log.warn("reading the live reference lap failed", err);
      }
    });
  }

  async #read(
    replan: boolean,
    announced: Session | null,
  ): Promise<{ ref: Reference | null; stats: LapStats }> {
    // A session is announced before the live service's copy follows (a name given while
    // the lap is driven): the announced one is the newer when it is the same session.
    let session = this.#live.session;
    if (
      announced && session?.id === announced.id && announced.updated_at >= session.updated_at
    ) session = announced;
    if (!session) return { ref: null, stats: NO_STATS };
    const laps = await this.#lapsOf(session);
    const stats = lapStats(laps, session.car_id);
    const circuit = circuitOf(session.track_name);
    let best: { id: number; time: number } | null = null;
    for (const l of laps) {
      if (!l.counts_for_best || !l.complete || l.time_ms <= 0) continue;
      if (!best || l.time_ms < best.time) best = { id: l.id, time: l.time_ms };
    }
    if (circuit !== null) {
      const b = (await this.#sessions.bests()).find((x) =>
        x.circuit === circuit && x.car_id === session.car_id
      );
      if (b && (!best || b.time_ms < best.time)) best = { id: b.lap_id, time: b.time_ms };
    }
    if (!best) return { ref: null, stats };
    const current = this.#ref;
    if (!replan && current?.lapId === best.id && current.circuit === circuit) {
      return { ref: current, stats };
    }
    return { ref: await this.#reference(best.id, best.time, circuit, session.track_name), stats };
  }

  /** Lap `id` as the reference, with the circuit's sectors laid out on it. */
  async #reference(
    id: number,
    timeMs: number,
    circuit: string | null,
    trackName: string,
  ): Promise<Reference | null> {
    let lap;
    try {
      lap = await this.#sessions.lap(id);
    } catch (err) {
      if (err instanceof NotFound) return null;
      throw err;
    }
    const s = lap.samples;
    let bounds: Reference["bounds"] = null;
    let brakes: BrakePoint[] = [];
    try {
      const trace = traceOf(s, `lap ${id}`);
      const marks = await this.#bundles.marks(circuit);
      bounds = sectorBounds(trace, sectorPlan(trace, marks));
      // The same corners and brake points GET /api/analysis/corners reports for this lap.
      const corners = circuit !== null && this.#corners
        ? await this.#corners.cornerSources(trackName, marks)
        : { authored: marks?.corners ?? null, circuit: [] };
      brakes = brakePoints(
        cornerReport({ id, time_ms: timeMs, samples: s }, null, corners.authored, {
          circuit: corners.circuit,
        }).corners,
      );
    } catch (err) {
      // A lap that never moves has no sectors; the gap still works.
      if (!(err instanceof BadRequest)) throw err;
    }
    return {
      lapId: id,
      timeMs,
      circuit,
      path: { t: s.t, x: s.pos_x, z: s.pos_z },
      dist: s.dist,
      bounds,
      brakes,
      length: s.dist.length ? s.dist[s.dist.length - 1] : 0,
    };
  }

  async #lapsOf(session: Session): Promise<LapSummary[]> {
    try {
      return await this.#sessions.laps(session.id);
    } catch (err) {
      if (err instanceof NotFound) return [];
      throw err;
    }
  }
}

/**
 * The 1-based sector holding distance `d` of the reference (the last one
 * also past its end, where the line is); null when none does.
 */
function sectorAt(bounds: readonly ([number, number] | null)[], d: number): number | null {
  for (let k = 0; k < bounds.length; k++) {
    const b = bounds[k];
    if (b && d >= b[0] && (d < b[1] || k === bounds.length - 1)) return k + 1;
  }
  return null;
}

/** Refuses a race that is not exactly one of laps or minutes, whole and in range. */
function checkRace(race: { race_laps?: number; race_minutes?: number }): void {
  const given = (["race_laps", "race_minutes"] as const).filter((k) => race[k] !== undefined);
  if (given.length !== 1) {
    const message = "exactly one of race_laps and race_minutes is required";
    const issues: Issue[] = given.length === 0
      ? [{ path: "race_laps", message }]
      : given.map((path) => ({ path, message }));
    throw new BadRequest(`${message}, got ${given.length}`, issues);
  }
  const [name] = given;
  const max = name === "race_laps" ? MAX_RACE_LAPS : MAX_RACE_MINUTES;
  const v = race[name]!;
  if (!Number.isInteger(v) || v < 1 || v > max) {
    const rule = `must be a whole number from 1 to ${max}`;
    throw new BadRequest(`${name} ${rule}`, [{ path: name, message: rule }]);
  }
}

/** `v` to `dp` places, never -0 (JSON cannot carry it). */
function round(v: number, dp: number): number {
  const f = 10 ** dp;
  return Math.round(v * f) / f + 0;
}
