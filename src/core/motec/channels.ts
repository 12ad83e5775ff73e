/**
 * The channels of a MoTeC i2 log: their names, short names, units and
 * decimal places as i2 users know them, and how each is made from a lap's
 * stored samples. All run at the lap's 60 Hz. Channels a lap does not carry
 * the samples for are left out of the log, never filled with made-up values.
 *
 * @module
 */
import type { LapSamples, SampleColumn } from "../laps/columns.ts";
import { latitudeOf, longitudeOf } from "./gps.ts";

/** Samples per second of every channel. */
export const MOTEC_FREQUENCY_HZ = 60;

/** Standard gravity, m/s², the G of the G force channels. */
export const STANDARD_GRAVITY = 9.80665;

/** One channel's description: what i2 shows. */
export interface MotecChannelSpec {
  /** Name, at most 31 bytes. */
  name: string;
  /** Short name, at most 7 bytes. */
  short: string;
  /** Unit, at most 11 bytes. */
  unit: string;
  /**
   * Decimal places: values are stored as integers in steps of 10^-decimals,
   * the channel's scaling step.
   */
  decimals: number;
  /** The sample columns the channel is made from; all must be present. */
  sources: readonly SampleColumn[];
}

/** A channel with its values over a whole log. */
export interface MotecChannel extends MotecChannelSpec {
  values: Float64Array;
}

/** A channel's spec and how its values come from one lap's samples. */
interface ChannelDef extends MotecChannelSpec {
  make(s: LapSamples, n: number): Float64Array;
}

const WHEELS = [["fl", "FL"], ["fr", "FR"], ["rl", "RL"], ["rr", "RR"]] as const;

function column(c: SampleColumn, scale = 1): (s: LapSamples, n: number) => Float64Array {
  return (s, n) => {
    const src = s[c]!;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = src[i] * scale;
    return out;
  };
}

function def(
  name: string,
  short: string,
  unit: string,
  decimals: number,
  sources: readonly SampleColumn[],
  make: (s: LapSamples, n: number) => Float64Array,
): ChannelDef {
  return { name, short, unit, decimals, sources, make };
}

/**
 * Ticks either side used to differentiate speed (±4, 0.13 s) and heading
 * (±8, 0.27 s). Positions are stored to 1 cm and jitter from tick to tick, so
 * a shorter span for heading is mostly noise: on the Suzuka lap the turn rate
 * from positions strays from the packets' yaw rate by 0.11 rad/s on average
 * over ±2 ticks, 0.039 over ±5 and 0.035 over ±8, against a mean of 0.30.
 */
const SPEED_SPAN = 4;
const HEADING_SPAN = 8;

/**
 * Longitudinal acceleration in G from the change of speed over ±4 ticks,
 * timed by `t` so a gap in the samples does not inflate it.
 */
function longitudinalG(s: LapSamples, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - SPEED_SPAN);
    const b = Math.min(n - 1, i + SPEED_SPAN);
    const dt = s.t[b] - s.t[a];
    out[i] = dt > 0 ? (s.speed[b] - s.speed[a]) / 3.6 / dt / STANDARD_GRAVITY : 0;
  }
  return out;
}

/**
 * Lateral acceleration in G, speed times the rate of turn of the driven line
 * (from positions ±8 ticks around the sample); positive in a left-hand turn,
 * the way GT7's yaw rate counts. Zero where the car moved under 0.1 m either
 * side, where a heading cannot be told from positions stored to 1 cm.
 */
function lateralG(s: LapSamples, n: number): Float64Array {
  const out = new Float64Array(n);
  const x = s.pos_x;
  const z = s.pos_z;
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - HEADING_SPAN);
    const b = Math.min(n - 1, i + HEADING_SPAN);
    if (a === i || b === i) continue;
    const ax = x[i] - x[a], az = z[i] - z[a];
    const bx = x[b] - x[i], bz = z[b] - z[i];
    if (Math.hypot(ax, az) < 0.1 || Math.hypot(bx, bz) < 0.1) continue;
    // Heading h = atan2(dx, dz); its change from the first chord to the second.
    let dh = Math.atan2(bx, bz) - Math.atan2(ax, az);
    if (dh > Math.PI) dh -= 2 * Math.PI;
    else if (dh < -Math.PI) dh += 2 * Math.PI;
    const dt = (s.t[b] - s.t[a]) / 2;
    if (dt > 0) out[i] = (s.speed[i] / 3.6) * (dh / dt) / STANDARD_GRAVITY;
  }
  return out;
}

/**
 * Vertical acceleration in G, the second derivative of the world height over
 * ±8 ticks (three points timed by `t`), without gravity: 0 on level ground
 * and on a steady slope, positive when the car is pushed upwards (a
 * compression), negative over a crest.
 */
function verticalG(s: LapSamples, n: number): Float64Array {
  const out = new Float64Array(n);
  const y = s.pos_y!;
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - HEADING_SPAN);
    const b = Math.min(n - 1, i + HEADING_SPAN);
    if (a === i || b === i) continue;
    const t1 = s.t[i] - s.t[a];
    const t2 = s.t[b] - s.t[i];
    if (t1 <= 0 || t2 <= 0) continue;
    const acc = 2 * ((y[b] - y[i]) / t2 - (y[i] - y[a]) / t1) / (t1 + t2);
    out[i] = acc / STANDARD_GRAVITY;
  }
  return out;
}

/**
 * Every channel a log may carry, in the order the log lists them. Wheel
 * speed is the wheel's slip ratio times the car's speed (the slip ratio is
 * the wheel's surface speed over the car's); below 1 m/s the stored slip is
 * 1 by definition, so the wheel speeds there equal the car's.
 */
const DEFS: readonly ChannelDef[] = [
  def("Lap Time", "LapTime", "s", 3, ["t"], column("t")),
  def("Lap Distance", "LapDist", "m", 2, ["dist"], column("dist")),
  def("Vehicle Speed", "Speed", "km/h", 2, ["speed"], column("speed")),
  def("Engine RPM", "RPM", "rpm", 0, ["rpm"], column("rpm")),
  def("Throttle Pos", "Thr", "%", 1, ["throttle"], column("throttle")),
  def("Brake Pos", "Brk", "%", 1, ["brake"], column("brake")),
  def("Clutch Pos", "Clutch", "%", 1, ["clutch"], column("clutch")),
  def("Gear", "Gear", "", 0, ["gear"], column("gear")),
  def("Steered Angle", "Steer", "deg", 2, ["steer"], column("steer", 180 / Math.PI)),
  def("G Force Lat", "GLat", "G", 3, ["t", "speed", "pos_x", "pos_z"], lateralG),
  def("G Force Long", "GLong", "G", 3, ["t", "speed"], longitudinalG),
  def("G Force Vert", "GVert", "G", 3, ["t", "pos_y"], verticalG),
  ...WHEELS.map(([w, W]) =>
    def(`Wheel Speed ${W}`, `WSpd${W}`, "km/h", 2, ["speed", `slip_${w}`], (s, n) => {
      const slip = s[`slip_${w}`]!;
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) out[i] = slip[i] * s.speed[i];
      return out;
    })
  ),
  ...WHEELS.map(([w, W]) =>
    def(`Wheel Slip ${W}`, `Slip${W}`, "ratio", 4, [`slip_${w}`], column(`slip_${w}`))
  ),
  ...WHEELS.map(([w, W]) =>
    def(`Susp Pos ${W}`, `SusP${W}`, "mm", 1, [`sus_${w}`], column(`sus_${w}`))
  ),
  ...WHEELS.map(([w, W]) =>
    def(`Tyre Temp ${W}`, `TTmp${W}`, "C", 1, [`tt_${w}`], column(`tt_${w}`))
  ),
  def("Ride Height", "RideH", "mm", 1, ["body_height"], column("body_height")),
  def("Fuel Level", "Fuel", "L", 3, ["fuel"], column("fuel")),
  def("Boost Pressure", "Boost", "bar", 3, ["boost"], column("boost")),
  def("Oil Temp", "OilT", "C", 1, ["oil_temp"], column("oil_temp")),
  def("Water Temp", "WatT", "C", 1, ["water_temp"], column("water_temp")),
  def("GPS Latitude", "GPSLat", "deg", 7, ["pos_z"], (s, n) => {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = latitudeOf(s.pos_z[i]);
    return out;
  }),
  def("GPS Longitude", "GPSLon", "deg", 7, ["pos_x"], (s, n) => {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = longitudeOf(s.pos_x[i]);
    return out;
  }),
  def("GPS Altitude", "GPSAlt", "m", 2, ["pos_y"], column("pos_y")),
];

/** Every channel a log may carry (without values), in log order. */
export const MOTEC_CHANNELS: readonly MotecChannelSpec[] = DEFS.map((
  { name, short, unit, decimals, sources },
) => ({ name, short, unit, decimals, sources }));

/**
 * The channels of a log made of `laps` back to back: each channel whose
 * sources every lap carries, its values the laps' in order. A channel some
 * lap lacks is left out whole rather than padded.
 */
export function motecChannels(laps: readonly { samples: LapSamples }[]): MotecChannel[] {
  const lengths = laps.map((l) => l.samples.t.length);
  const total = lengths.reduce((a, b) => a + b, 0);
  const out: MotecChannel[] = [];
  for (const d of DEFS) {
    const carried = laps.every((l, k) =>
      d.sources.every((c) => l.samples[c]?.length === lengths[k])
    );
    if (!carried) continue;
    const values = new Float64Array(total);
    let at = 0;
    laps.forEach((l, k) => {
      values.set(d.make(l.samples, lengths[k]), at);
      at += lengths[k];
    });
    const { name, short, unit, decimals, sources } = d;
    out.push({ name, short, unit, decimals, sources, values });
  }
  return out;
}
