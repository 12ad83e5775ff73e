/**
 * gt7dashboard's save (snipem/gt7dashboard, the most used open-source GT7
 * dashboard): a JSON list of laps, each an object of lap facts
 * (`number`, `lap_finish_time` in ms, `car_id`, `fuel_at_start`,
 * `fuel_at_end`) and per-tick `data_*` arrays at 60 Hz. Read as it is: the
 * pedals in %, speed in km/h, positions in metres, `data_time` the lap
 * clock with an offset (rebased to the lap's first tick), `data_tires` the
 * sum of four wheel slip ratios (so a quarter of it is our mean slip).
 *
 * @module
 */
import { ImportRejected, type Issue } from "../../errors.ts";
import type { SampleColumn } from "../columns.ts";
import type { ForeignLap } from "./foreign_lap.ts";

/** The `data_*` arrays read, and the sample column each becomes. */
export const GT7DASHBOARD_CHANNELS: ReadonlyArray<readonly [string, SampleColumn]> = [
  ["data_speed", "speed"],
  ["data_throttle", "throttle"],
  ["data_braking", "brake"],
  ["data_rpm", "rpm"],
  ["data_gear", "gear"],
  ["data_boost", "boost"],
  ["data_tires", "tire_slip"],
  ["data_position_x", "pos_x"],
  ["data_position_y", "pos_y"],
  ["data_position_z", "pos_z"],
];

const BY_COLUMN = new Map(GT7DASHBOARD_CHANNELS.map(([key, column]) => [column, key]));

/** The save's key for `column`, for a reason that names what a lap lacks. */
export function gt7dashboardLabel(column: SampleColumn): string {
  return BY_COLUMN.get(column) ?? column;
}

/**
 * True when `json` looks like gt7dashboard's save: a non-empty list whose
 * first entry is an object with a `data_` array.
 */
export function isGt7dashboardSave(json: unknown): boolean {
  if (!Array.isArray(json) || json.length === 0) return false;
  const first: unknown = json[0];
  return isRecord(first) &&
    Object.keys(first).some((k) => k.startsWith("data_") && Array.isArray(first[k]));
}

/**
 * The laps of a gt7dashboard save, in file order, each with the channels it
 * carries (a missing `data_*` array stays absent, for the import to judge).
 *
 * @throws {ImportRejected} with a JSON path per fault, before anything is
 * stored: an entry that is not an object; a lap without `data_time`, with a
 * `data_*` array whose length differs from it or holding something that is
 * not a finite number, a `data_time` that does not increase; a
 * `lap_finish_time`, `number` or `car_id` that is not a whole number >= 0.
 */
export function readGt7dashboard(json: readonly unknown[]): ForeignLap[] {
  const issues: Issue[] = [];
  const laps: ForeignLap[] = [];
  json.forEach((entry, i) => {
    const lap = readLap(entry, `$[${i}]`, issues);
    if (lap !== undefined) laps.push(lap);
  });
  if (issues.length > 0) throw new ImportRejected(issues.slice(0, 50));
  return laps;
}

function readLap(entry: unknown, at: string, issues: Issue[]): ForeignLap | undefined {
  if (!isRecord(entry)) {
    issues.push({ path: at, message: "must be a lap object" });
    return undefined;
  }
  const before = issues.length;
  const time = numbers(entry.data_time, `${at}.data_time`, issues);
  const n = time?.length ?? 0;
  if (time !== undefined) {
    for (let i = 1; i < n; i++) {
      if (time[i] > time[i - 1]) continue;
      issues.push({ path: `${at}.data_time[${i}]`, message: "must be above the time before it" });
      break;
    }
  }
  const channels: ForeignLap["channels"] = {};
  for (const [key, column] of GT7DASHBOARD_CHANNELS) {
    if (entry[key] === undefined) continue;
    const values = numbers(entry[key], `${at}.${key}`, issues);
    if (values === undefined) continue;
    if (values.length !== n) {
      issues.push({
        path: `${at}.${key}`,
        message: `must hold one value per data_time entry: ${values.length}, not ${n}`,
      });
      continue;
    }
    channels[column] = column === "tire_slip" ? values.map((v) => v / 4) : values;
  }
  const number = whole(entry.number, `${at}.number`, issues);
  const timeMs = whole(entry.lap_finish_time, `${at}.lap_finish_time`, issues);
  const carId = entry.car_id === undefined ? 0 : whole(entry.car_id, `${at}.car_id`, issues);
  if (issues.length > before || time === undefined) return undefined;
  const start = time[0] - 1 / 60;
  return {
    number: number!,
    time_ms: timeMs!,
    time: time.map((t) => t - start),
    channels,
    car_id: carId,
    fuel_start: finite(entry.fuel_at_start),
    fuel_end: finite(entry.fuel_at_end),
  };
}

/** `value` as an array of finite numbers, or undefined after saying what is wrong. */
function numbers(value: unknown, path: string, issues: Issue[]): number[] | undefined {
  if (!Array.isArray(value)) {
    issues.push({
      path,
      message: value === undefined ? "required" : "must be an array of numbers",
    });
    return undefined;
  }
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] === "number" && Number.isFinite(value[i])) continue;
    issues.push({ path: `${path}[${i}]`, message: "must be a finite number" });
    return undefined;
  }
  return value as number[];
}

function whole(value: unknown, path: string, issues: Issue[]): number | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  issues.push({ path, message: "must be a whole number >= 0" });
  return undefined;
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
