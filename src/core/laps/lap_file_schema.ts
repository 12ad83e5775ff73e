/**
 * The lap file's constants and zod schemas: the envelope, the lap fields an
 * import reads, and a documentary schema of the whole file for publication
 * as JSON Schema. The samples are checked by hand in `lap_file.ts`, which is
 * faster on 120,000-tick columns and names the exact offending element.
 *
 * @module
 */
import { z } from "zod";
import { REQUIRED_COLUMNS, SAMPLE_COLUMNS, WHEEL_CODES } from "./columns.ts";
import { TRACK_NAME_RULE, trackNameFault, trackNameProblem } from "../track_name.ts";

/** The `format` of every lap file. */
export const LAP_FILE_FORMAT = "sim-datalogger-lap";

/** The version this build writes; it also reads version 1. */
export const LAP_FILE_VERSION = 2;

/** Most ticks a lap file may carry (about 33 minutes at 60 Hz). */
export const MAX_LAP_SAMPLES = 120_000;

/** Longest `finished_at` accepted. */
export const MAX_FINISHED_AT = 64;

/** Longest `car_category` accepted. */
export const MAX_CAR_CATEGORY = 16;

/** Most gear ratios accepted in `gearing.ratios`. */
export const MAX_GEAR_RATIOS = 16;

/**
 * A circuit or car name a lap file carries: "" when unknown, else a name by
 * the one circuit-name rule (src/core/track_name.ts), kept trimmed. Only ""
 * means unknown: a name of spaces is refused as blank, as a rename would
 * refuse it, rather than read as unnamed. A refusal says which part of the
 * rule broke. Added within version 2: a reader that predates the fields
 * drops them as unknown keys, and a file without them reads as unknown.
 */
const carriedName = z.string().default("")
  .refine((v) => v === "" || trackNameFault(v) === null, {
    error: (issue) => carriedNameFault(issue.input as string),
  })
  .transform((v) => v.trim())
  .meta({ description: `"" for none, or a name: ${TRACK_NAME_RULE}` });

/** Why `name` is no carried name, in the words of the circuit-name rule. */
function carriedNameFault(name: string): string {
  const fault = trackNameFault(name) ?? TRACK_NAME_RULE;
  return trackNameProblem(name) === "blank" ? `${fault} ("" alone means no name)` : fault;
}

/** The car's gearing, as the lap file carries it. */
export const gearingSchema = z.object({
  ratios: z.array(z.number()).max(MAX_GEAR_RATIOS),
  top_speed: z.number(),
  rpm_alert: z.number(),
});

/**
 * The lap fields an import reads, with the defaults that apply when a field
 * is absent (as in a version 1 file). Unknown keys are dropped; numbers must
 * be finite (zod 4 refuses Infinity and NaN); booleans are not numbers.
 */
export const lapFieldsSchema = z.object({
  number: z.int().min(0),
  time_ms: z.int().min(1),
  finished_at: z.string().max(MAX_FINISHED_AT).default(""),
  car_id: z.int().min(0).default(0),
  car_category: z.string().max(MAX_CAR_CATEGORY).default(""),
  fuel_start: z.number().default(0),
  fuel_end: z.number().default(0),
  max_water_temp: z.number().default(0),
  max_oil_temp: z.number().default(0),
  min_oil_pressure: z.number().default(-1),
  tod_ms: z.int().min(-1).default(-1),
  gearing: gearingSchema.nullable().default(null),
  race_position: z.int().min(-1).default(-1),
  salvaged: z.boolean().default(false),
  // Interpolation leaves no trace in the samples, so these two are read;
  // they can never make a lap complete (see buildImportedLap).
  samples_filled: z.int().min(0).default(0),
  longest_gap_packets: z.int().min(-1).default(0),
  // The session's circuit and car names, so an import names its new session.
  track_name: carriedName.describe('The circuit\'s name, or "" when it was unnamed.'),
  car_name: carriedName.describe("The car's name as the exporting logger knew it."),
});

/** The lap fields after validation and defaults. */
export type LapFields = z.output<typeof lapFieldsSchema>;

const column = z.array(z.number()).min(1).max(MAX_LAP_SAMPLES);
const required = new Set<string>(REQUIRED_COLUMNS);

/** Documentary schema of `lap.samples`: required and optional columns of equal length. */
export const samplesSchema = z.object(
  Object.fromEntries(
    SAMPLE_COLUMNS.map((c) => [c, required.has(c) ? column : column.optional()]),
  ),
).describe("Parallel arrays at 60 Hz, all of one length; unknown columns are dropped.");

/** Documentary schema of one lap event (recomputed on import, never read). */
export const eventSchema = z.object({
  type: z.string(),
  start_dist: z.number(),
  end_dist: z.number(),
  wheels: z.array(z.enum(WHEEL_CODES)),
  severity: z.number(),
});

/** Documentary schema of a whole lap file of either version. */
export const lapFileSchema = z.object({
  format: z.literal(LAP_FILE_FORMAT),
  version: z.union([z.literal(1), z.literal(2)]),
  lap: lapFieldsSchema.extend({
    samples: samplesSchema,
    events: z.array(eventSchema).optional().describe("Recomputed from the samples on import."),
    samples_expected: z.int().optional().describe("Recomputed from time_ms on import."),
    samples_received: z.int().optional().describe("Recomputed on import."),
    samples_missing: z.int().optional().describe("Recomputed from the samples on import."),
    complete: z.boolean().optional().describe("Recomputed from the samples on import."),
  }),
});

/** The JSON Schema (draft 2020-12) of a lap file as an import reads it. */
export function lapFileJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(lapFileSchema, { io: "input" }) as Record<string, unknown>;
}
