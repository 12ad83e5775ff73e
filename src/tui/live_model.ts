/**
 * What the live view shows, read from the application on demand: the latest
 * frame, the telemetry link, the live session and its laps. Values are
 * rounded to what the screen shows, so two snapshots taken a few packets
 * apart compare equal unless the display would change.
 *
 * Reads of the store (the session's laps, the best lap's path) happen in the
 * background when a lap or session event arrives; a snapshot never waits.
 *
 * @module
 */
import { FLAG } from "../core/gt7/frame.ts";
import type { PacketFormat } from "../core/gt7/format.ts";
import type { LapSummary } from "../core/laps/lap.ts";
import type { SessionKind, TrackSource } from "../core/laps/session.ts";
import type { App } from "../app/create_app.ts";
import { deltaToTrace, type LapTrace } from "./live_delta.ts";
import { gearText, pedalPct } from "./format.ts";

/** The telemetry link as shown. */
export interface LinkState {
  /** `none` when no telemetry source is attached (tests, imports). */
  state: "connected" | "waiting" | "listening" | "none";
  /** The console's address, or null when none is configured. */
  console: string | null;
  /** Where telemetry is received, or null without a source. */
  listen: string | null;
  /** The format of the last packet, else the one requested; null without a source. */
  format: PacketFormat | null;
  /** Decoded packets per second, whole. */
  pps: number;
  /** Packets rejected plus packets lost. */
  drops: number;
}

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

/** The car, from the latest frame, rounded for display. */
export interface CarState {
  speedKmh: number;
  gear: string;
  /** Engine rpm to the nearest 10. */
  rpm: number;
  rpmAlertMin: number;
  rpmAlertMax: number;
  throttlePct: number;
  brakePct: number;
  /** Fuel (litres, or % charge), one decimal. */
  fuel: number;
  fuelCapacity: number;
  /** Laps the fuel lasts at the session's average use, one decimal; null without data. */
  fuelLaps: number | null;
  /** Tyre temperatures FL FR RL RR, whole °C. */
  tyres: [number, number, number, number];
  tcs: boolean;
  asm: boolean;
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
  /** `game` when the packet carries the lap clock (format C), `packets` when counted. */
  timerSource: "game" | "packets" | null;
  /** Gap to the session's best lap at this point of the lap, to 0.01 s; null when unknown. */
  deltaMs: number | null;
  car: CarState | null;
  /** The session's stored laps, oldest first. */
  laps: readonly LapRow[];
  /** Why the laps could not be read, or null. */
  error: string | null;
}

/** A packet period, ms. */
const TICK_MS = 1000 / 60;

/** The best lap's path, with the lap it came from. */
type BestTrace = { lapId: number; trace: LapTrace } | null;

interface Anchor {
  key: string;
  /** Packet id of the lap's first sample. */
  startPid: number;
}

/** Reads live state from an {@linkcode App}; one per live view. */
export class LiveModel {
  #app: App;
  #unsubscribe: (() => void) | null = null;
  #lapsFor: number | null = null;
  #laps: readonly LapRow[] = [];
  #avgFuel: number | null = null;
  #trace: BestTrace = null;
  #generation = 0;
  #pending: Promise<void> = Promise.resolve();
  #error: string | null = null;
  #anchor: Anchor | null = null;
  #hint: number | null = null;

  /** A model over `app`; call {@linkcode start} to follow its events. */
  constructor(app: App) {
    this.#app = app;
  }

  /** Follows lap and session events, re-reading the laps on each. Idempotent. */
  start(): void {
    if (this.#unsubscribe) return;
    this.#unsubscribe = this.#app.bus.subscribe(() => this.#reload());
    this.#reload();
  }

  /** Stops following events; pending reads finish but change nothing visible. */
  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#generation++;
  }

  /** Resolves when the reads started so far have finished. */
  settled(): Promise<void> {
    return this.#pending;
  }

  /** The state to draw now. Never waits and never throws. */
  snapshot(): LiveSnapshot {
    const app = this.#app;
    const frame = app.live.lastFrame;
    const status = app.live.status();
    const session = status.session;
    if ((session?.id ?? null) !== this.#lapsFor) this.#reload();

    let timerMs: number | null = null;
    let timerSource: LiveSnapshot["timerSource"] = null;
    let deltaMs: number | null = null;
    if (frame && frame.currentLap >= 1) {
      const key = `${frame.carId}:${frame.currentLap}`;
      if (this.#anchor?.key !== key) {
        // The recorder holds one sample per packet since the line, so the
        // lap's first packet is known even when the view opens mid-lap.
        this.#anchor = { key, startPid: frame.packetId - Math.max(0, status.buffered_samples - 1) };
        this.#hint = null;
      }
      let elapsed: number;
      if (frame.surface) {
        elapsed = frame.surface.lapTimeMs;
        timerSource = "game";
      } else {
        elapsed = (frame.packetId - this.#anchor.startPid + 1) * TICK_MS;
        timerSource = "packets";
      }
      timerMs = Math.floor(elapsed / 100) * 100;
      const trace = this.#trace?.trace;
      if (trace) {
        const d = deltaToTrace(trace, frame.posX, frame.posZ, elapsed, this.#hint);
        this.#hint = d?.index ?? this.#hint;
        deltaMs = d ? Math.round(d.deltaMs / 10) * 10 : null;
      }
    }

    return {
      link: this.#link(),
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
      lap: frame?.currentLap ?? null,
      timerMs,
      timerSource,
      deltaMs,
      car: frame
        ? {
          speedKmh: Math.round(frame.speed * 3.6),
          gear: gearText(frame.gear),
          rpm: Math.round(frame.engineRpm / 10) * 10,
          rpmAlertMin: frame.rpmAlertMin,
          rpmAlertMax: frame.rpmAlertMax,
          throttlePct: pedalPct(frame.throttle),
          brakePct: pedalPct(frame.brake),
          fuel: Math.round(frame.fuelLevel * 10) / 10,
          fuelCapacity: frame.fuelCapacity,
          fuelLaps: this.#avgFuel ? Math.round(frame.fuelLevel / this.#avgFuel * 10) / 10 : null,
          tyres: frame.tyreTemp.map((t) => Math.round(t)) as CarState["tyres"],
          tcs: (frame.flags & FLAG.tcs) !== 0,
          asm: (frame.flags & FLAG.asm) !== 0,
        }
        : null,
      laps: this.#laps,
      error: this.#error,
    };
  }

  #link(): LinkState {
    const t = this.#app.telemetryStatus();
    if (!t) return { state: "none", console: null, listen: null, format: null, pps: 0, drops: 0 };
    return {
      state: t.connected ? "connected" : t.console ? "waiting" : "listening",
      console: t.console,
      listen: t.listen,
      format: t.packet_format ?? t.format,
      pps: Math.round(t.packets_per_second),
      drops: t.rejected + t.missing,
    };
  }

  #reload(): void {
    const id = this.#app.live.session?.id ?? null;
    this.#lapsFor = id;
    const generation = ++this.#generation;
    this.#pending = this.#pending.then(async () => {
      if (generation !== this.#generation) return;
      if (id === null) {
        this.#setLaps([], null);
        return;
      }
      try {
        const laps = await this.#app.sessions.laps(id);
        const best = bestLap(laps);
        let trace = this.#trace;
        if (best && trace?.lapId !== best.id) {
          const full = await this.#app.sessions.lap(best.id);
          const s = full.samples;
          trace = { lapId: best.id, trace: { t: s.t, x: s.pos_x, z: s.pos_z } };
        }
        if (generation !== this.#generation) return;
        this.#setLaps(laps, best ? trace : null);
        this.#error = null;
      } catch (err) {
        if (generation === this.#generation) this.#error = (err as Error).message;
      }
    });
  }

  #setLaps(laps: LapSummary[], trace: BestTrace): void {
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
    const used = laps.map((l) => l.fuel_consumed).filter((f) => f > 0);
    this.#avgFuel = used.length ? used.reduce((a, b) => a + b, 0) / used.length : null;
    this.#trace = trace;
  }
}

/**
 * The fastest complete lap that counts for best (the earliest on a tie), or
 * null. It is the live delta's reference, so an incomplete lap is never
 * chosen, whatever its `counts_for_best` says.
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
