/**
 * MoTeC channels by name and unit, as our CSV and .ld exports name them and
 * as MoTeC i2 and other GT7 exporters do: which sample column each becomes
 * and the factor that brings its unit to ours. A channel in a unit not
 * listed is not read (a brake pressure in bar is no pedal position).
 *
 * @module
 */
import { CSV_CHANNELS } from "../csv.ts";
import type { SampleColumn } from "../columns.ts";

/** A channel an import reads: the column it fills and the factor to our unit. */
export interface MotecColumn {
  column: SampleColumn;
  factor: number;
  /** True for a yaw rate, which we store as its size. */
  absolute?: boolean;
}

const DEG = Math.PI / 180;
const PERCENT = { "%": 1 };
const SPEED = { "km/h": 1, kph: 1, "m/s": 3.6, mph: 1.609344 };
const MM = { mm: 1, m: 1000 };
const TEMP = { c: 1, "°c": 1, degc: 1 };
const NONE = { "": 1 };

/** A column, the names (lower case) it goes by, and the factor from each unit accepted. */
type Row = [SampleColumn, readonly string[], Record<string, number>];

/** Every channel an import reads; the first name is ours. */
const TABLE: readonly Row[] = [
  ["dist", ["distance", "lap distance", "lap dist"], { m: 1, km: 1000 }],
  ["speed", ["ground speed", "vehicle speed", "speed", "car speed"], SPEED],
  ["throttle", ["throttle pos", "throttle", "throttle position"], PERCENT],
  ["brake", ["brake pos", "brake", "brake position"], PERCENT],
  ["gear", ["gear"], NONE],
  ["rpm", ["engine rpm", "rpm", "engine speed"], { rpm: 1, "": 1 }],
  ["boost", ["boost pressure", "boost"], { bar: 1, kpa: 0.01 }],
  ["tire_slip", ["tyre slip ratio", "tire slip ratio"], { "": 1, ratio: 1 }],
  ["yaw_rate", ["yaw rate"], { "rad/s": 1, "deg/s": DEG }],
  ["pos_x", ["pos x", "position x", "world position x"], { m: 1 }],
  ["pos_y", ["pos y", "position y", "world position y", "gps altitude"], { m: 1 }],
  ["pos_z", ["pos z", "position z", "world position z"], { m: 1 }],
  ["body_height", ["ride height"], MM],
  ["fuel", ["fuel level"], { l: 1 }],
  ["aids", ["driver aids"], { bitmask: 1, "": 1 }],
  ["clutch", ["clutch pos"], PERCENT],
  ["steer", ["steered angle", "steering angle"], { deg: DEG, rad: 1 }],
  ["oil_temp", ["oil temp"], TEMP],
  ["water_temp", ["water temp"], TEMP],
  ...(["fl", "fr", "rl", "rr"] as const).flatMap((w): Row[] => [
    [`slip_${w}`, [`tyre slip ${w}`, `wheel slip ${w}`], { "": 1, ratio: 1 }],
    [`tt_${w}`, [`tyre temp ${w}`, `tire temp ${w}`], TEMP],
    [`sus_${w}`, [`susp travel ${w}`, `susp pos ${w}`], MM],
  ]),
];

const BY_NAME = new Map<string, [SampleColumn, Record<string, number>]>();
for (const [column, names, units] of TABLE) {
  for (const name of names) BY_NAME.set(name, [column, units]);
}

/** The column a channel `name` in `unit` fills, or null when it is not one an import reads. */
export function motecColumn(name: string, unit: string): MotecColumn | null {
  const found = BY_NAME.get(name.trim().toLowerCase());
  if (found === undefined) return null;
  const factor = found[1][unit.trim().toLowerCase()];
  if (factor === undefined) return null;
  return { column: found[0], factor, absolute: found[0] === "yaw_rate" ? true : undefined };
}

const LABELS = new Map<SampleColumn, string>(CSV_CHANNELS.map((c) => [c.column, c.name]));

/** Our MoTeC name for `column` (the CSV export's), for a reason naming what a log lacks. */
export function motecLabel(column: SampleColumn): string {
  return LABELS.get(column) ?? column;
}
