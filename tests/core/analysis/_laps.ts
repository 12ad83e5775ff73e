/**
 * Laps for analysis tests: the real ones (the Broad Bean fixture's four
 * laps, mapped from the other logger's format; the Suzuka capture through
 * the lap recorder) and synthetic ones driven along a known path.
 *
 * @module
 */
import { parseCapture } from "../../../src/core/gt7/capture.ts";
import { decodeFrame } from "../../../src/core/gt7/decode.ts";
import type { LapSamples } from "../../../src/core/laps/columns.ts";
import { LapRecorder } from "../../../src/core/laps/recorder.ts";
import type { AnalysedLap } from "../../../src/core/analysis/types.ts";
import { readFixture, readGzFixture } from "../../_fixtures.ts";

/** One lap of the Broad Bean fixture (another logger's save format); only the fields used. */
interface OtherLoggerLap {
  lap_finish_time: number;
  car_id: number;
  data_time: number[];
  data_speed: number[];
  data_throttle: number[];
  data_braking: number[];
  data_coasting: number[];
  data_gear: number[];
  data_rpm: number[];
  data_position_x: number[];
  data_position_z: number[];
}

/**
 * Maps a lap of the other logger to our samples. Its `data_speed` is km/h
 * (a 217 km/h top speed on a 1.7 km lap of 32.6 s); its throttle and brake
 * are 0..100 like ours. Its `data_time` starts a fraction of a second into
 * its own clock, so time is re-based to our convention (the first sample
 * at 1/60 s, stamped at the end of its tick), keeping any gap; distance is
 * speed integrated over each sample's own tick, as the recorder does.
 */
export function otherLoggerSamples(lap: OtherLoggerLap): LapSamples {
  const n = lap.data_time.length;
  const t: number[] = [];
  const dist: number[] = [];
  let d = 0;
  for (let i = 0; i < n; i++) {
    const dt = i === 0 ? 1 / 60 : lap.data_time[i] - lap.data_time[i - 1];
    t.push(lap.data_time[i] - lap.data_time[0] + 1 / 60);
    d += (lap.data_speed[i] / 3.6) * dt;
    dist.push(d);
  }
  return {
    t,
    dist,
    speed: lap.data_speed,
    throttle: lap.data_throttle,
    brake: lap.data_braking,
    coast: lap.data_coasting.map((c) => (c ? 1 : 0)),
    gear: lap.data_gear,
    rpm: lap.data_rpm,
    tire_slip: new Array(n).fill(1),
    body_height: new Array(n).fill(0),
    pos_x: lap.data_position_x,
    pos_z: lap.data_position_z,
  };
}

/** The four Broad Bean Raceway laps (car 1549), ids 1 to 4 in file order. */
export function broadBeanLaps(): AnalysedLap[] {
  const text = new TextDecoder().decode(readFixture("gt7/broad-bean-raceway-4-laps.json"));
  return (JSON.parse(text) as OtherLoggerLap[]).map((lap, i) => ({
    id: i + 1,
    time_ms: lap.lap_finish_time,
    samples: otherLoggerSamples(lap),
  }));
}

let suzuka: AnalysedLap | null = null;

/** The Suzuka capture's one whole lap (99,036 ms, 5,942 samples), as the lap recorder cuts it; id 10. */
export function suzukaLap(): AnalysedLap {
  if (suzuka) return suzuka;
  const recorder = new LapRecorder();
  for (const packet of parseCapture(readGzFixture("gt7/suzuka-full-lap.A.gt7.gz")).packets) {
    for (const event of recorder.push(decodeFrame(packet))) {
      if (event.type === "lap") {
        suzuka = { id: 10, time_ms: event.lap.time_ms, samples: event.lap.samples };
        return suzuka;
      }
    }
  }
  throw new Error("the Suzuka capture gave no lap");
}

/** A point on the ground, metres. */
export interface PathPoint {
  x: number;
  z: number;
}

/** A path as a function of distance along it, with its length. */
export interface Path {
  length: number;
  at(s: number): PathPoint;
}

/**
 * A stadium: a straight of `straight` metres along +z from the line at
 * x = `radius`, a half circle over to x = -`radius`, the straight back,
 * the other half circle home. Heading atan2(dx, dz) falls through both
 * bends, so in the GT7 world (left of travel is (fz, -fx)) both are right
 * turns.
 */
export function stadium(straight = 600, radius = 80): Path {
  const arc = Math.PI * radius;
  const length = 2 * straight + 2 * arc;
  return {
    length,
    at(s: number): PathPoint {
      s = ((s % length) + length) % length;
      if (s < straight) return { x: radius, z: s };
      s -= straight;
      if (s < arc) {
        const a = s / radius;
        return { x: radius * Math.cos(a), z: straight + radius * Math.sin(a) };
      }
      s -= arc;
      if (s < straight) return { x: -radius, z: straight - s };
      s -= straight;
      const a = Math.PI + s / radius;
      return { x: radius * Math.cos(a), z: radius * Math.sin(a) };
    },
  };
}

/** A polyline path through `points` in order (open: the lap ends at the last point). */
export function polyline(points: readonly PathPoint[]): Path {
  const cum = [0];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    cum.push(cum[i - 1] + Math.hypot(b.x - a.x, b.z - a.z));
  }
  const length = cum[cum.length - 1];
  return {
    length,
    at(s: number): PathPoint {
      s = Math.min(length, Math.max(0, s));
      let i = 1;
      while (i < cum.length - 1 && cum[i] < s) i++;
      const f = (s - cum[i - 1]) / (cum[i] - cum[i - 1] || 1);
      const a = points[i - 1];
      const b = points[i];
      return { x: a.x + (b.x - a.x) * f, z: a.z + (b.z - a.z) * f };
    },
  };
}

/**
 * A path drawn by steering: each piece runs `length` metres at a constant
 * signed curvature (1/m; + turns left in the GT7 world, where heading is
 * atan2(dx, dz)), from the origin heading along +z. Points every metre.
 */
export function steered(pieces: readonly (readonly [length: number, curvature: number])[]): Path {
  const points: PathPoint[] = [{ x: 0, z: 0 }];
  let x = 0;
  let z = 0;
  let h = 0;
  for (const [length, curvature] of pieces) {
    for (let i = 0; i < length; i++) {
      h += curvature / 2;
      x += Math.sin(h);
      z += Math.cos(h);
      h += curvature / 2;
      points.push({ x, z });
    }
  }
  return polyline(points);
}

/** Options of {@linkcode driveLap}. */
export interface DriveOptions {
  /** Speed at a distance along the path, km/h (default 150 everywhere). */
  speed?: (s: number) => number;
  /** Brake at a distance along the path, percent (default 0). */
  brake?: (s: number) => number;
  /** Sideways offset at a distance along the path, metres, + to the left of travel. */
  offset?: (s: number) => number;
  /** Ticks after which packets were lost: tick index -> ticks lost (a jump in `t`). */
  gaps?: ReadonlyMap<number, number>;
}

/**
 * Drives `path` once from its start at 60 Hz: each sample is stamped at the
 * end of its tick (the recorder's convention), distance is speed
 * integrated, positions follow the path (shifted sideways by `offset`).
 * The lap ends with the last sample before the path's end.
 */
export function driveLap(path: Path, opts: DriveOptions = {}): LapSamples {
  const speed = opts.speed ?? (() => 150);
  const brake = opts.brake ?? (() => 0);
  const offset = opts.offset ?? (() => 0);
  const s: LapSamples = {
    t: [],
    dist: [],
    speed: [],
    throttle: [],
    brake: [],
    coast: [],
    gear: [],
    tire_slip: [],
    body_height: [],
    pos_x: [],
    pos_z: [],
  };
  let d = 0;
  let tick = 0;
  for (let i = 0;; i++) {
    const ticks = 1 + (opts.gaps?.get(i) ?? 0);
    const v = speed(d);
    const next = d + (v / 3.6) * ticks / 60;
    if (next >= path.length) break;
    d = next;
    tick += ticks;
    const p = path.at(d);
    const ahead = path.at(d + 0.5);
    const hx = ahead.x - p.x;
    const hz = ahead.z - p.z;
    const len = Math.hypot(hx, hz) || 1;
    const off = offset(d);
    s.t.push(tick / 60);
    s.dist.push(d);
    s.speed.push(v);
    s.throttle.push(brake(d) > 0 ? 0 : 100);
    s.brake.push(brake(d));
    s.coast.push(0);
    s.gear!.push(4);
    s.tire_slip!.push(1);
    s.body_height!.push(80);
    // Left of travel is (hz, -hx) in the GT7 world.
    s.pos_x.push(p.x + (hz / len) * off);
    s.pos_z.push(p.z - (hx / len) * off);
  }
  return s;
}

/** The same lap driven `k` times slower: every time stretched by `k`, speeds divided by it. */
export function slowed(samples: LapSamples, k: number): LapSamples {
  return {
    ...samples,
    t: samples.t.map((t) => t * k),
    speed: samples.speed.map((v) => v / k),
  };
}

/** An analysed lap of `samples` whose reported time is its sample duration. */
export function asLap(id: number, samples: LapSamples, time_ms?: number): AnalysedLap {
  return { id, time_ms: time_ms ?? Math.round(samples.t[samples.t.length - 1] * 1000), samples };
}
