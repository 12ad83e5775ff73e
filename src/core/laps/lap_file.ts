/**
 * The lap file: one lap with its samples in a versioned JSON envelope
 * `{format: "sim-datalogger-lap", version: 2, lap}`, for sharing laps between
 * installations. Export writes version 2; import reads versions 1 and 2,
 * refuses newer ones, validates everything, and recomputes what is derived
 * from the samples (metrics, events and coverage) rather than trusting the
 * file.
 *
 * @module
 */
import { ImportRejected, type Issue } from "../errors.ts";
import {
  BASE_COLUMNS,
  type LapSamples,
  OPTIONAL_COLUMNS,
  presentColumns,
  REQUIRED_COLUMNS,
  SAMPLE_COLUMNS,
  type SampleColumn,
} from "./columns.ts";
import { computeEvents, countEvents } from "./events.ts";
import { COVERAGE_FIELDS, judgeCoverage, timeAxisGaps } from "./coverage.ts";
import { MAX_FILLED_PACKETS } from "./sample.ts";
import type { Lap, LapEvent } from "./lap.ts";
import {
  LAP_FILE_FORMAT,
  LAP_FILE_VERSION,
  type LapFields,
  lapFieldsSchema,
  MAX_LAP_SAMPLES,
} from "./lap_file_schema.ts";
import { computeMetrics } from "./metrics.ts";

export {
  LAP_FILE_FORMAT,
  LAP_FILE_VERSION,
  lapFileJsonSchema,
  MAX_LAP_SAMPLES,
} from "./lap_file_schema.ts";

/** Most issues an import rejection lists. */
export const MAX_ISSUES = 50;

/** Most non-finite elements reported per sample column. */
const MAX_ISSUES_PER_COLUMN = 5;

/** The lap fields a version 2 file carries, in the order they are written. */
export const LAP_FILE_FIELDS = [
  "id",
  "session_id",
  "number",
  "time_ms",
  "finished_at",
  "car_id",
  "car_category",
  "fuel_start",
  "fuel_end",
  "fuel_consumed",
  "full_throttle_pct",
  "full_brake_pct",
  "coasting_pct",
  "tire_spin_pct",
  "max_speed",
  "min_body_height",
  "total_ticks",
  ...COVERAGE_FIELDS,
  "tod_ms",
  "tcs_active_pct",
  "asm_active_pct",
  "max_water_temp",
  "max_oil_temp",
  "min_oil_pressure",
  "counts_for_best",
  "off_track_count",
  "off_survey_count",
  "clean_lap",
  "salvaged",
  "race_position",
  "event_counts",
  "events",
  "gearing",
] as const satisfies readonly (keyof Lap)[];

/** The names of a lap's session a lap file carries, "" where unknown. */
export interface LapFileNames {
  /** The session's circuit name. */
  track_name: string;
  /** The session's car name. */
  car_name: string;
}

/** The `lap` object of a version 2 file. */
export type LapFileLap =
  & Pick<Lap, typeof LAP_FILE_FIELDS[number]>
  & LapFileNames
  & { samples: LapSamples };

/** A version 2 lap file. */
export interface LapFileV2 {
  format: typeof LAP_FILE_FORMAT;
  version: typeof LAP_FILE_VERSION;
  lap: LapFileLap;
}

/**
 * What an import takes from a lap file: the carried fields and the samples.
 * Everything derived from the samples is left to {@linkcode buildImportedLap}.
 */
export interface ParsedLap extends LapFields {
  /** The file's version (1 or 2). */
  version: 1 | 2;
  /** Validated samples: every required column, all of one length 1..120,000. */
  samples: LapSamples;
}

/**
 * A lap ready to store from any file an import reads: a lap file's carried
 * fields and samples, or another tool's lap put into the same shape.
 */
export type ImportLap = Omit<ParsedLap, "version">;

/**
 * The version 2 lap file of `lap`: every field of {@linkcode LAP_FILE_FIELDS},
 * then its session's `track_name` and `car_name` (from `names`, "" when not
 * given), and every sample column present, in canonical order. The sample
 * arrays are shared with `lap`, not copied. `JSON.stringify` of the result
 * round-trips every finite double exactly, except that -0 is written as 0.
 */
export function toLapFile(
  lap: Lap,
  names: LapFileNames = { track_name: "", car_name: "" },
): LapFileV2 {
  const fields: Record<string, unknown> = {};
  for (const f of LAP_FILE_FIELDS) fields[f] = lap[f];
  const samples: Partial<Record<SampleColumn, number[]>> = {};
  for (const c of presentColumns(lap.samples)) samples[c] = lap.samples[c];
  return {
    format: LAP_FILE_FORMAT,
    version: LAP_FILE_VERSION,
    lap: {
      ...(fields as Pick<Lap, typeof LAP_FILE_FIELDS[number]>),
      track_name: names.track_name,
      car_name: names.car_name,
      samples: samples as LapSamples,
    },
  };
}

/**
 * Validates a parsed JSON document as a lap file of version 1 or 2 and
 * returns its carried fields and samples. Unknown lap keys and unknown sample
 * columns are dropped, as are optional columns whose length differs from `t`.
 *
 * @throws {ImportRejected} listing every failure found (at most
 * {@linkcode MAX_ISSUES}), each with its JSON path: a wrong `format`; a
 * `version` that is not the integer 1 or 2 (newer versions are refused); a
 * lap field of the wrong type or out of range; samples that are not an object
 * of arrays, lack a required column, have base columns of unequal lengths,
 * hold a value that is not a finite number, or count outside 1..120,000;
 * `samples_filled` not below the sample count.
 */
export function parseLapFile(json: unknown): ParsedLap {
  const issues: Issue[] = [];
  if (!isRecord(json)) throw new ImportRejected({ path: "$", message: "must be a JSON object" });
  if (json.format !== LAP_FILE_FORMAT) {
    issues.push({
      path: "$.format",
      message: `unrecognized lap file format: expected "${LAP_FILE_FORMAT}"`,
    });
  }
  const version = json.version;
  if (typeof version !== "number" || !Number.isInteger(version)) {
    issues.push({ path: "$.version", message: "must be the integer 1 or 2" });
  } else if (version > LAP_FILE_VERSION) {
    issues.push({
      path: "$.version",
      message:
        `lap file is version ${version}; this build reads versions 1 to ${LAP_FILE_VERSION}` +
        " — upgrade first",
    });
  } else if (version < 1) {
    issues.push({ path: "$.version", message: "must be the integer 1 or 2" });
  }
  // Another format or version defines its own `lap`: reading further would
  // only report noise.
  if (issues.length > 0) throw new ImportRejected(issues);

  const lap = json.lap;
  if (!isRecord(lap)) throw new ImportRejected({ path: "$.lap", message: "must be an object" });

  const fields = lapFieldsSchema.safeParse(lap);
  if (!fields.success) {
    for (const issue of fields.error.issues) {
      issues.push({ path: jsonPath(["lap", ...issue.path]), message: issue.message });
    }
  }
  const samples = checkSamples(lap.samples, issues);
  if (fields.success && samples !== undefined) {
    const n = samples.t.length;
    // A lap's first sample is always received, so at most n - 1 are filled.
    if (fields.data.samples_filled >= n) {
      issues.push({
        path: "$.lap.samples_filled",
        message: `must be less than the sample count (${n})`,
      });
    }
  }
  if (issues.length > 0 || !fields.success || samples === undefined) {
    throw new ImportRejected(issues.slice(0, MAX_ISSUES));
  }
  const raceColumn = samples.race_pos;
  const race_position = raceColumn === undefined
    ? fields.data.race_position
    : finalPosition(raceColumn[raceColumn.length - 1]);
  return { ...fields.data, race_position, version: version as 1 | 2, samples };
}

/**
 * The lap to store for an imported file: the carried fields as parsed, the
 * metrics and events recomputed from the samples, `imported` true, not
 * judged against a survey (`off_survey_count` -1). An empty `finished_at`
 * becomes `importedAt` when given.
 *
 * Coverage is judged afresh from the samples and `time_ms`, never taken from
 * the file: the expected count from the lap time, unfilled gaps from the
 * steps of `t`. Only what interpolation hides is carried: `samples_filled`,
 * and a `longest_gap_packets` of at most 3 (a longer claim the time axis does
 * not show is dropped). `frames_dropped` is the gaps `t` shows plus the filled
 * samples. The lap is eligible for the session best exactly when complete.
 */
export function buildImportedLap(
  parsed: ImportLap,
  importedAt?: string,
): Omit<Lap, "id" | "session_id"> {
  const { samples } = parsed;
  const events: LapEvent[] = computeEvents(samples);
  const axis = timeAxisGaps(samples.t);
  const hidden = parsed.longest_gap_packets <= MAX_FILLED_PACKETS ? parsed.longest_gap_packets : 0;
  const coverage = judgeCoverage({
    timeMs: parsed.time_ms,
    samples: samples.t.length,
    filled: parsed.samples_filled,
    longestGap: Math.max(axis.longest, hidden, parsed.samples_filled > 0 ? 1 : 0),
  });
  return {
    number: parsed.number,
    time_ms: parsed.time_ms,
    finished_at: parsed.finished_at === "" && importedAt !== undefined
      ? importedAt
      : parsed.finished_at,
    car_id: parsed.car_id,
    car_category: parsed.car_category,
    fuel_start: parsed.fuel_start,
    fuel_end: parsed.fuel_end,
    ...computeMetrics(samples, parsed.fuel_start, parsed.fuel_end),
    ...coverage,
    max_water_temp: parsed.max_water_temp,
    max_oil_temp: parsed.max_oil_temp,
    min_oil_pressure: parsed.min_oil_pressure,
    tod_ms: parsed.tod_ms,
    counts_for_best: coverage.complete,
    off_survey_count: -1,
    salvaged: parsed.salvaged,
    race_position: parsed.race_position,
    frames_dropped: axis.missing + parsed.samples_filled,
    imported: true,
    event_counts: countEvents(events),
    events,
    gearing: parsed.gearing,
    samples,
  };
}

/** A race position column's last value, or -1 when it holds no valid position. */
function finalPosition(value: number): number {
  return Number.isInteger(value) && value >= 1 ? value : -1;
}

/**
 * Checks `lap.samples`, pushing an issue for every failure, and returns the
 * kept columns when nothing failed here.
 */
function checkSamples(raw: unknown, issues: Issue[]): LapSamples | undefined {
  const base = "$.lap.samples";
  const before = issues.length;
  if (raw === undefined) {
    issues.push({ path: base, message: "required" });
    return undefined;
  }
  if (!isRecord(raw)) {
    issues.push({ path: base, message: "must be an object of sample columns" });
    return undefined;
  }
  const columns = new Map<SampleColumn, unknown[]>();
  for (const c of SAMPLE_COLUMNS) {
    if (!Object.hasOwn(raw, c)) continue;
    const value = raw[c];
    if (Array.isArray(value)) columns.set(c, value);
    else issues.push({ path: `${base}.${c}`, message: "must be an array of numbers" });
  }
  const missing = REQUIRED_COLUMNS.filter((c) => !Object.hasOwn(raw, c)).sort();
  if (missing.length > 0) {
    issues.push({ path: base, message: `missing sample columns: ${missing.join(", ")}` });
  }

  const reference = columns.has("t") ? "t" : BASE_COLUMNS.find((c) => columns.has(c));
  if (reference !== undefined) {
    const n = columns.get(reference)!.length;
    for (const [c, values] of columns) {
      if (values.length === n) continue;
      if ((OPTIONAL_COLUMNS as readonly string[]).includes(c)) {
        columns.delete(c);
      } else {
        issues.push({
          path: `${base}.${c}`,
          message: `sample columns have unequal lengths: ${c} has ${values.length}, ` +
            `${reference} has ${n}`,
        });
      }
    }
    if (n < 1 || n > MAX_LAP_SAMPLES) {
      issues.push({ path: base, message: `sample count must be 1..${MAX_LAP_SAMPLES}, got ${n}` });
    }
  }

  for (const [c, values] of columns) {
    let bad = 0;
    for (let i = 0; i < values.length; i++) {
      if (Number.isFinite(values[i])) continue;
      if (issues.length >= MAX_ISSUES) return undefined;
      issues.push({ path: `${base}.${c}[${i}]`, message: "must be a finite number" });
      if (++bad >= MAX_ISSUES_PER_COLUMN) break;
    }
  }
  if (issues.length > before) return undefined;
  return Object.fromEntries(columns) as unknown as LapSamples;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `$`-rooted JSON path of a zod issue path, such as `$.lap.gearing.ratios[2]`. */
function jsonPath(path: readonly PropertyKey[]): string {
  let out = "$";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && IDENTIFIER.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}
