/**
 * What the live view shows, read from the application on demand. Every
 * number of the drive comes from the app's live frames (`app.frames`, the
 * objects `GET /api/live` streams), so the dashboard and the API agree: the
 * delta to the best lap ever driven at this circuit in this car, the
 * predicted lap time, the fuel strategy. Sector splits are timed here from
 * the frames' sector changes and compared with the personal best sectors
 * (`app.analysis.sectors`). Values are rounded to what the screen shows, so
 * two snapshots taken a few packets apart compare equal unless the display
 * would change.
 *
 * Reads of the store (laps, sector bests, the map) happen in the background
 * when a lap or session event arrives; a snapshot never waits.
 *
 * @module
 */
import type { LiveFrameSource } from "../app/live/live_frame.ts";
import type { LapSummary } from "../core/laps/lap.ts";
import type { SessionKind, TrackSource } from "../core/laps/session.ts";
import { slugify } from "../core/bundle/slug.ts";
import type { AppFace } from "../app/create_app.ts";
import { hubNote } from "./hub_note.ts";
import {
  type CarState,
  carState,
  type FuelPlan,
  fuelPlan,
  type LinkState,
  linkState,
} from "./live_figures.ts";
import { isCompleteMap, LiveMap, type LiveMapView, type MapSource } from "./live_map.ts";
import type { CompiledTrack } from "../core/geometry/types.ts";
import { SectorClock, type SectorRow } from "./live_sectors.ts";
import { followSectors } from "./sector_timing.ts";
import { PacketRate } from "./packet_rate.ts";

export type { CarState, FuelPlan, LinkState } from "./live_figures.ts";

/** The live session as shown. */
export interface SessionInfo {
  id: number;
  kind: SessionKind;
  /** The track name, "" while unnamed. */
  track: string;
  trackSource: TrackSource;
  car: string;
  laps: number;
  bestMs: number | null;
}

/** One stored lap of the live session. */
export interface LapRow {
  id: number;
  number: number;
  timeMs: number;
  /** Fuel used, two decimals. */
  fuel: number;
  /** Detected events of every type. */
  events: number;
  /** Highest speed, whole km/h. */
  topSpeed: number;
  /** Share of the lap at full throttle, whole %. */
  fullThrottle: number;
  /** True for the one lap holding the session best. */
  best: boolean;
  /** Whether the lap may hold the best (a full lap). */
  counts: boolean;
  /** False when packets were lost beyond the filled short gaps: never a best or a reference. */
  complete: boolean;
  /** Samples the lap lacks against its lap time. */
  missing: number;
}

/** Everything the live view draws. */
export interface LiveSnapshot {
  link: LinkState;
  /** The stored live session, or null before its first lap. */
  session: SessionInfo | null;
  /** The lap counter of the latest frame, or null before any frame. */
  lap: number | null;
  /** Time into the current lap, floored to 0.1 s; null before the first line crossing. */
  timerMs: number | null;
  /** Gap to the best lap ever at this circuit in this car, to 0.01 s; null when unknown. */
  deltaMs: number | null;
  /** The lap time the gap predicts, to 0.01 s; null without a gap. */
  predictedMs: number | null;
  /** The best lap ever at this circuit in this car (the delta's reference), ms; null without one. */
  referenceMs: number | null;
  /** Sector splits against the personal best sectors; null without a sector plan. */
  sectors: SectorRow | null;
  /** Fuel use and when to pit, or null before any frame. */
  fuel: FuelPlan | null;
  car: CarState | null;
  /** The track map with the car, or null without geometry or a best lap. */
  map: LiveMapView | null;
  /** The session's stored laps, oldest first. */
  laps: readonly LapRow[];
  /** Why the laps could not be read, or null. */
  error: string | null;
  /**
   * The frame's cue for the corner ahead where the last lap lost most
   * (src/app/live/live_cue.ts: from a few hundred metres before it to its
   * braking point), or null outside that stretch.
   */
  cue: { text: string; lossS: number } | null;
}

/** Options of {@linkcode LiveModel}. */
export interface LiveModelOptions {
  /** The live frames; `app.frames` by default. */
  frames?: LiveFrameSource;
  /** The clock stale links are aged by, ms since the epoch; the app's clock by default. */
  now?: () => number;
  /**
   * Sector timing that someone else feeds and that outlives the model (the
   * dashboard's, sector_timing.ts); by default the model times sectors
   * itself while started.
   */
  sectors?: SectorClock | null;
}

/** The map's size in cells; 0 x 0 draws none. */
export interface MapSize {
  cols: number;
  rows: number;
}

/** Reads live state from an {@linkcode AppFace}; one per live view. */
export class LiveModel {
  #app: AppFace;
  #frames: LiveFrameSource;
  #now: () => number;
  #unsubscribe: (() => void)[] = [];
  #loadedFor: string | null = null;
  #laps: readonly LapRow[] = [];
  #sectorBests: (number | null)[] = [];
  #clock: SectorClock;
  /** Whether the model feeds {@linkcode LiveModel.#clock} itself. */
  #ownClock: boolean;
  #map = new LiveMap();
  #rate = new PacketRate();
  #generation = 0;
  #pending: Promise<void> = Promise.resolve();
  #error: string | null = null;

  /** A model over `app`; call {@linkcode start} to follow its events and frames. */
  constructor(app: AppFace, opts: LiveModelOptions = {}) {
    this.#app = app;
    this.#frames = opts.frames ?? app.frames;
    this.#now = opts.now ?? (() => app.now().getTime());
    this.#ownClock = !opts.sectors;
    this.#clock = opts.sectors ?? new SectorClock();
  }

  /**
   * Follows lap and session events, and (unless given the dashboard's
   * sector timing) every frame for the sector splits. Idempotent.
   */
  start(): void {
    if (this.#unsubscribe.length) return;
    this.#unsubscribe = [
      this.#app.bus.subscribe((event) => {
        // Survey coverage arrives twice a second and changes nothing here; sector bests read
        // every counting lap of the circuit, so only what can change them reloads.
        if (event.type === "lap" || event.type === "session" || event.type === "bundle") {
          this.#reload();
        }
      }),
      ...(this.#ownClock ? [followSectors(this.#app, this.#frames, this.#clock)] : []),
    ];
    this.#reload();
  }

  /** Stops following; pending reads finish but change nothing visible. */
  stop(): void {
    for (const off of this.#unsubscribe) off();
    this.#unsubscribe = [];
    this.#generation++;
  }

  /** Resolves when the reads started so far have finished. */
  settled(): Promise<void> {
    return this.#pending;
  }

  /** The state to draw now, with a map of `map` cells. Never waits and never throws. */
  snapshot(map: MapSize = { cols: 0, rows: 0 }): LiveSnapshot {
    const app = this.#app;
    const frame = this.#frames.latest();
    const session = app.live.session;
    if (this.#key(frame?.delta.reference_lap_id ?? null) !== this.#loadedFor) this.#reload();
    const raw = app.live.lastFrame;
    const lapped = frame !== null && frame.lap >= 1;
    return {
      link: {
        ...this.#link(frame),
        store: storeNote(app),
        hub: hubNote(app.hub?.status() ?? null),
      },
      session: session
        ? {
          id: session.id,
          kind: session.kind,
          track: session.track_name,
          trackSource: session.track_source,
          car: session.car_name,
          laps: session.lap_count,
          bestMs: session.best_lap_time_ms,
        }
        : null,
      lap: frame?.lap ?? null,
      timerMs: lapped ? Math.floor(frame.lap_clock_ms / 100) * 100 : null,
      deltaMs: lapped ? to10(frame.delta.delta_ms) : null,
      predictedMs: lapped ? to10(frame.delta.predicted_lap_ms) : null,
      referenceMs: frame?.delta.reference_lap_ms ?? null,
      sectors: lapped && frame.sector !== null ? this.#clock.row(this.#sectorBests) : null,
      fuel: frame ? fuelPlan(frame) : null,
      car: frame
        ? carState(frame, raw ? { min: raw.rpmAlertMin, max: raw.rpmAlertMax } : null)
        : null,
      map: this.#map.view(
        map.cols,
        map.rows,
        frame ? { x: frame.position.x, z: frame.position.z } : null,
      ),
      laps: this.#laps,
      error: this.#error,
      cue: frame?.cue ? { text: frame.cue.text, lossS: frame.cue.loss_s } : null,
    };
  }

  /** The link's state, its packet rate steady over the last seconds (packet_rate.ts). */
  #link(frame: ReturnType<LiveFrameSource["latest"]>): LinkState {
    const status = this.#app.telemetryStatus();
    const now = this.#now();
    const rate = status ? this.#rate.sample(status.decoded, now) : null;
    return linkState(status, frame, now, rate);
  }

  /** What the background reads depend on: the session, its name and the reference lap. */
  #key(referenceLapId: number | null): string {
    const s = this.#app.live.session;
    return `${s?.id ?? "-"}|${s?.track_name ?? ""}|${s?.lap_count ?? 0}|${referenceLapId ?? "-"}`;
  }

  #reload(): void {
    const app = this.#app;
    const session = app.live.session;
    const referenceId = this.#frames.latest()?.delta.reference_lap_id ?? null;
    const key = this.#key(referenceId);
    this.#loadedFor = key;
    const generation = ++this.#generation;
    this.#pending = this.#pending.then(async () => {
      if (generation !== this.#generation) return;
      if (session === null) {
        this.#setLaps([]);
        return;
      }
      try {
        const laps = await app.sessions.laps(session.id);
        const bests = await this.#readSectorBests(session.track_name, session.car_id);
        const source = await this.#readMap(session.track_name, referenceId ?? bestLap(laps)?.id);
        if (generation !== this.#generation) return;
        this.#setLaps(laps);
        this.#sectorBests = bests;
        this.#map.source = source;
        this.#error = null;
      } catch (err) {
        if (generation === this.#generation) this.#error = (err as Error).message;
      }
    });
  }

  /** The personal best through each sector at this circuit in this car, ms; [] when unknown. */
  async #readSectorBests(track: string, car: number): Promise<(number | null)[]> {
    if (track === "") return [];
    try {
      const bests = await this.#app.analysis.sectors({ track, car });
      return bests.sectors.map((s) => (s.best_s === null ? null : Math.round(s.best_s * 1000)));
    } catch {
      // No lap of this circuit and car counts yet: nothing to compare with.
      return [];
    }
  }

  /**
   * The circuit's compiled geometry when its bundle is a complete map (see
   * {@linkcode isCompleteMap}), else the path of lap `lapId`.
   */
  async #readMap(track: string, lapId: number | undefined): Promise<MapSource | null> {
    if (track !== "") {
      const slug = slugify(track);
      let doc: CompiledTrack | null = null;
      try {
        // Cached by the geometry service: only a changed bundle compiles again.
        doc = await this.#app.geometry.compiled(slug);
      } catch {
        // No bundle of this circuit: the best lap's line is the map.
      }
      // A fragment (a few hundred metres of one border) would draw a scrap with the car off it.
      if (doc && isCompleteMap(doc)) {
        const key = `geometry:${slug}:${doc._bundle_identity.join(":")}:${doc.compiled_at}`;
        if (this.#map.source?.key === key) return this.#map.source;
        return { kind: "geometry", key, doc };
      }
    }
    if (lapId === undefined) return null;
    const key = `line:${lapId}`;
    if (this.#map.source?.key === key) return this.#map.source;
    const lap = await this.#app.sessions.lap(lapId);
    return { kind: "line", key, xs: lap.samples.pos_x, zs: lap.samples.pos_z };
  }

  #setLaps(laps: LapSummary[]): void {
    const best = bestLap(laps);
    this.#laps = laps.map((l) => ({
      id: l.id,
      number: l.number,
      timeMs: l.time_ms,
      fuel: Math.round(l.fuel_consumed * 100) / 100,
      events: Object.values(l.event_counts).reduce((a, b) => a + b, 0),
      topSpeed: Math.round(l.max_speed),
      fullThrottle: Math.round(l.full_throttle_pct),
      best: l === best,
      counts: l.counts_for_best,
      complete: l.complete,
      missing: l.samples_missing,
    }));
  }
}

/** `ms` rounded to 10 ms, or null. */
function to10(ms: number | null): number | null {
  return ms === null || !Number.isFinite(ms) ? null : Math.round(ms / 10) * 10;
}

/**
 * The fastest complete lap that counts for best (the earliest on a tie), or
 * null. An incomplete lap is never chosen, whatever its `counts_for_best`
 * says.
 */
export function bestLap<T extends Pick<LapSummary, "time_ms" | "counts_for_best" | "complete">>(
  laps: readonly T[],
): T | null {
  let best: T | null = null;
  for (const l of laps) {
    if (!l.counts_for_best || !l.complete || l.time_ms <= 0) continue;
    if (!best || l.time_ms < best.time_ms) best = l;
  }
  return best;
}

/**
 * The store's trouble for the link line, first so it is never cut off:
 * `store full: 3 laps not yet saved (0.0 MB free on /data)`; null when fine.
 */
function storeNote(app: AppFace): string | null {
  const s = app.storeHealth.status();
  if (s.state === "ok" || s.state === "low") return null;
  if (s.state === "read_only") return "store read-only";
  const free = s.free_bytes === null
    ? ""
    : ` (${(s.free_bytes / 2 ** 20).toFixed(1)} MB free on ${s.disk})`;
  return `store full: ${s.laps_waiting} laps not yet saved${free}`;
}
