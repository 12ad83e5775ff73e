/**
 * Stored laps for the lap index, lap listing and analysis tests and the
 * bests benchmark: sessions named as asked, laps with samples of a given
 * size, and the whole store's keys for "nothing left behind" checks.
 *
 * @module
 */
import type { LapSamples } from "../src/core/laps/columns.ts";
import type { Session, SessionKind } from "../src/core/laps/session.ts";
import { type NewLap, type SavedLap, saveLap } from "../src/storage/laps.ts";
import { createSession, updateSession } from "../src/storage/sessions.ts";

/** Samples of `n` ticks along a straight line of `span` metres (at least 2 ticks). */
export function lineSamples(n: number, span = 1000): LapSamples {
  const col = (f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));
  return {
    t: col((i) => (i + 1) / 60),
    dist: col((i) => ((i + 1) / n) * span),
    speed: col(() => 150),
    throttle: col(() => 100),
    brake: col(() => 0),
    coast: col(() => 0),
    tire_slip: col(() => 1),
    body_height: col(() => 80),
    pos_x: col((i) => ((i + 1) / n) * span),
    pos_z: col(() => 0),
  };
}

/** What a stored test lap is like. */
export interface TestLapOptions {
  /** Lap time, ms (default: the samples' duration). */
  time_ms?: number;
  car_id?: number;
  /** False for a lap with a hole in its samples (default true). */
  complete?: boolean;
  imported?: boolean;
  number?: number;
  finished_at?: string;
}

/** A lap to store of `samples`, complete unless said otherwise. */
export function testLap(samples: LapSamples, opts: TestLapOptions = {}): NewLap {
  const n = samples.t.length;
  const complete = opts.complete ?? true;
  const time = opts.time_ms ?? Math.round(samples.t[n - 1] * 1000);
  return {
    samples_expected: complete ? n : n + 30,
    samples_received: n,
    samples_filled: 0,
    samples_missing: complete ? 0 : 30,
    longest_gap_packets: complete ? 0 : 30,
    complete,
    number: opts.number ?? 1,
    time_ms: time,
    finished_at: opts.finished_at ?? "2026-11-24T10:00:00.000Z",
    car_id: opts.car_id ?? 3315,
    car_category: "",
    fuel_start: 100,
    fuel_end: 99,
    tod_ms: 0,
    off_survey_count: -1,
    salvaged: false,
    race_position: -1,
    frames_dropped: complete ? 0 : 30,
    imported: opts.imported ?? false,
    event_counts: {},
    events: [],
    gearing: null,
    max_water_temp: 0,
    max_oil_temp: 0,
    min_oil_pressure: -1,
    total_ticks: n,
    fuel_consumed: 1,
    full_throttle_pct: 100,
    full_brake_pct: 0,
    coasting_pct: 0,
    tire_spin_pct: 0,
    max_speed: 150,
    min_body_height: 80,
    tcs_active_pct: 0,
    asm_active_pct: 0,
    off_track_count: -1,
    clean_lap: null,
    samples,
  };
}

/** A stored session of `kind` (default live) in `car`, named `track` ("" leaves it unnamed). */
export async function testSession(
  kv: Deno.Kv,
  track: string,
  car = 3315,
  kind: SessionKind = "live",
): Promise<Session> {
  const s = await createSession(kv, {
    kind,
    started_at: "2026-11-24T09:00:00.000Z",
    car_id: car,
    car_name: `Car ${car}`,
  });
  if (track === "") return s;
  return (await updateSession(
    kv,
    s.id,
    (x) => ({ ...x, track_name: track, track_source: "user" }),
  ))!;
}

/** Stores laps of `times` (ms) in `session`, each `n` samples over 1 km unless told. */
export async function storeLaps(
  kv: Deno.Kv,
  session: Session,
  times: readonly number[],
  opts: Omit<TestLapOptions, "time_ms"> & { n?: number } = {},
): Promise<SavedLap[]> {
  const out: SavedLap[] = [];
  for (const [k, time] of times.entries()) {
    const lap = testLap(lineSamples(opts.n ?? 20), {
      car_id: session.car_id,
      number: k + 1,
      ...opts,
      time_ms: time,
    });
    out.push(await saveLap(kv, session.id, lap));
  }
  return out;
}

/** Every key in the store, as printable strings, sorted. */
export async function allKeys(kv: Deno.Kv): Promise<string[]> {
  const keys: string[] = [];
  for await (const e of kv.list({ prefix: [] })) keys.push(JSON.stringify(e.key));
  return keys.sort();
}
