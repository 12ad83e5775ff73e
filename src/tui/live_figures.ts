/**
 * The live view's figures worked out from one live frame and the link's
 * status: rounded as the screen shows them, so two samples compare equal
 * unless the display would change. Pure.
 *
 * @module
 */
import type { LiveFrame } from "../app/live/live_frame.ts";
import type { TelemetryStatus } from "../app/live/telemetry_source.ts";
import type { PacketFormat } from "../core/gt7/format.ts";
import type { HubNote } from "./hub_note.ts";

/** No packet for longer than this and the link is stale: readouts grey out, ms. */
export const STALE_AFTER_MS = 1000;

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
  /** Datagrams the kernel dropped for the socket; null where unknown. */
  kernelDrops: number | null;
  /** The `--record` capture: its size in MB (one decimal), or why it stopped; null when not recording. */
  record: { mb: number; error: string | null } | null;
  /** Apps the relay serves now (`--relay`, `--forward`); null when nothing is relayed. */
  relayApps?: number | null;
  /** Whole seconds since the last packet, or null before any. */
  lastPacketS: number | null;
  /** True once a packet came and none for more than {@linkcode STALE_AFTER_MS}. */
  stale: boolean;
  /** The store's trouble (`store full: 3 laps not yet saved ...`), shown first; null or absent when fine. */
  store?: string | null;
  /** The team hub's note (`hub ✓ 3↑`, `hub ✗ 12 waiting`); null or absent without a hub. */
  hub?: HubNote | null;
}

/** The car, rounded for display. */
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
  /** Tyre temperatures FL FR RL RR, whole °C. */
  tyres: [number, number, number, number];
  tcs: boolean;
  asm: boolean;
}

/** The fuel strategy line. */
export interface FuelPlan {
  /** Median use per lap, two decimals; null without complete laps. */
  perLap: number | null;
  /** Laps the fuel on board lasts, one decimal; null without complete laps. */
  lapsLeft: number | null;
  /** The last lap the fuel lasts to the line (pit at its end); null without laps. */
  pitLap: number | null;
}

/**
 * The link as shown, `nowMs` being the current time. The last packet is the
 * later of the source's `last_packet_at` and the latest frame's `at`, so a
 * view fed in-process (no source) ages too. `rate` (packets per second),
 * when known, is the rate shown; else the source's `packets_per_second`.
 */
export function linkState(
  t: TelemetryStatus | null,
  frame: Pick<LiveFrame, "at"> | null,
  nowMs: number,
  rate: number | null = null,
): LinkState {
  const times = [t?.last_packet_at, frame?.at]
    .map((s) => (s ? Date.parse(s) : NaN))
    .filter(Number.isFinite);
  const last = times.length ? Math.max(...times) : null;
  const ageMs = last === null ? null : Math.max(0, nowMs - last);
  const common = {
    lastPacketS: ageMs === null ? null : Math.floor(ageMs / 1000),
    stale: ageMs !== null && ageMs > STALE_AFTER_MS,
  };
  if (!t) {
    return {
      state: "none",
      console: null,
      listen: null,
      format: null,
      pps: 0,
      drops: 0,
      kernelDrops: null,
      record: null,
      ...common,
    };
  }
  return {
    state: t.connected ? "connected" : t.console ? "waiting" : "listening",
    console: t.console,
    listen: t.listen,
    format: t.packet_format ?? t.format,
    pps: Math.round(rate ?? t.packets_per_second),
    drops: t.rejected + t.missing,
    kernelDrops: t.kernel_drops ?? null,
    record: t.record
      ? { mb: Math.round(t.record.bytes / 2 ** 20 * 10) / 10, error: t.record.error }
      : null,
    relayApps: t.relay ? t.relay.apps.length : null,
    ...common,
  };
}

/** The gear as the car shows it: R for reverse, N for neutral, else the number. */
export function liveGear(gear: number): string {
  if (gear < 0) return "R";
  if (gear === 0) return "N";
  return String(gear);
}

/**
 * The car from `f`; the shift-light range is not in the frame and comes
 * from the raw packet (`alert`), 0..0 without one.
 */
export function carState(f: LiveFrame, alert: { min: number; max: number } | null): CarState {
  return {
    speedKmh: Math.round(f.speed_kmh),
    gear: liveGear(f.gear),
    rpm: Math.round(f.rpm / 10) * 10,
    rpmAlertMin: alert?.min ?? 0,
    rpmAlertMax: alert?.max ?? 0,
    throttlePct: Math.round(f.throttle_pct),
    brakePct: Math.round(f.brake_pct),
    fuel: Math.round(f.fuel * 10) / 10,
    fuelCapacity: f.fuel_capacity,
    tyres: f.tyre_temp_c.map((t) => Math.round(t)) as CarState["tyres"],
    tcs: f.aids.tcs,
    asm: f.aids.asm,
  };
}

/**
 * The fuel plan of `f`: use per lap and laps left from its strategy, and
 * the pit lap: the fuel runs out `lapsLeft` laps from where the car is now
 * (the share of the lap driven taken from the lap clock over the median lap
 * time), so the last lap it finishes is the whole part of that point.
 */
export function fuelPlan(
  f: Pick<LiveFrame, "lap" | "lap_clock_ms" | "fuel_laps_left" | "strategy">,
): FuelPlan {
  const left = f.fuel_laps_left ?? f.strategy.laps_to_empty;
  const perLap = f.strategy.fuel_per_lap;
  if (left === null || !Number.isFinite(left)) {
    return { perLap: perLap === null ? null : round2(perLap), lapsLeft: null, pitLap: null };
  }
  const lapMs = f.strategy.lap_time_ms;
  const done = lapMs && lapMs > 0 ? Math.min(1, Math.max(0, f.lap_clock_ms / lapMs)) : 0;
  const lap = Math.max(1, f.lap);
  return {
    perLap: perLap === null ? null : round2(perLap),
    lapsLeft: Math.floor(left * 10) / 10,
    pitLap: Math.floor(lap - 1 + done + left),
  };
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
