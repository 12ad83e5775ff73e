/**
 * zod schemas of bundle versions 1 to 4 (SPEC.md 2.1, 4.1, 8; REFERENCE.md
 * 1.1 and 1.8). Parsing rebuilds every value from checked values, drops
 * unknown keys and fills defaults; each failure carries a message naming the
 * rule it broke. What cannot be said in a schema (kind resolution, renumbering,
 * run reconciliation) happens in `validate.ts`.
 *
 * @module
 */
import { TRACK_NAME_RULE, trackNameFault, trackNameSchema } from "../track_name.ts";
import { z } from "zod";
import {
  COORD_LIMIT,
  LAP_LIMIT,
  MAX_CORNERS,
  MAX_EDGES,
  MAX_FINISH_CROSSINGS,
  MAX_LENGTH_M,
  MAX_NAME_CHARS,
  MAX_NOTE_CHARS,
  MAX_OFFICIAL_ID_CHARS,
  MAX_OFFICIAL_NAME_CHARS,
  MAX_OFFICIAL_TRACK_CHARS,
  MAX_SECTIONS,
  MAX_TRACK_CHARS,
  MAX_TURNS,
  MAX_UPDATED_AT_CHARS,
  RUN_LIMIT,
  SOURCE_ID_PATTERN,
  TW_LIMIT,
  UNIT_LIMIT,
} from "./limits.ts";
import { BUNDLE_FORMAT, KINDS } from "./types.ts";
import { countFitsRun, isRunCounter, isVoteCount } from "./edge_rules.ts";

/** An error map that says "required" for a missing value and the rule otherwise. */
function rule(text: string): (issue: z.core.$ZodRawIssue) => string {
  return (issue) => issue.input === undefined ? `required: ${text}` : text;
}

/** Length in characters (code points), as JSON Schema and Python count them. */
function chars(value: string): number {
  if (value.length <= 1) return value.length;
  let count = 0;
  for (const _ of value) count++;
  return count;
}

function hasKeys(value: object): boolean {
  for (const _ in value) return true;
  return false;
}

/** "Must not be empty", judged only when the entries themselves passed (an unknown kind is not "no kind"). */
function nonEmpty(message: string) {
  return z.refine<object>(hasKeys, {
    error: message,
    when: (payload) => payload.issues.length === 0,
  });
}

function text(max: number, message: string) {
  return z.string({ error: rule(message) })
    .check(z.refine((value: string) => value.length <= max || chars(value) <= max, message))
    .meta({ maxLength: max });
}

function finite(min: number, max: number, message: string) {
  return z.number({ error: rule(message) }).min(min, message).max(max, message);
}

function integer(min: number, max: number, message: string) {
  return z.int({ error: rule(message) }).min(min, message).max(max, message);
}

const COORD_RULE = `coordinate must be a finite number from -${COORD_LIMIT} to ${COORD_LIMIT}`;
const UNIT_RULE =
  `direction component must be a finite number from -${UNIT_LIMIT} to ${UNIT_LIMIT}`;
const RUN_RULE = `run counter must be an integer from 0 to ${RUN_LIMIT}`;
const SOURCE_RULE = "source id must be 6 to 32 lowercase hex characters";

const coord = finite(-COORD_LIMIT, COORD_LIMIT, COORD_RULE);
const unit = finite(-UNIT_LIMIT, UNIT_LIMIT, UNIT_RULE);
const runCounter = integer(0, RUN_LIMIT, RUN_RULE);
const elevation = finite(
  -COORD_LIMIT,
  COORD_LIMIT,
  `y must be null or a finite number from -${COORD_LIMIT} to ${COORD_LIMIT}`,
);
const trackWidth = finite(
  -TW_LIMIT,
  TW_LIMIT,
  `tw must be null or a finite number from -${TW_LIMIT} to ${TW_LIMIT}`,
);
const side = z.enum(["L", "R"], { error: rule('side must be "L" or "R"') });
const kind = z.enum(KINDS, {
  error: rule("kind must be one of wall, runoff, edge, auto, straddle"),
});

/** A source id: 6 to 32 lowercase hex characters. */
export const sourceIdSchema = z.string({ error: SOURCE_RULE }).regex(
  SOURCE_ID_PATTERN,
  SOURCE_RULE,
);

const point = z.object({ x: coord, z: coord }, { error: rule("point must be an object {x, z}") });

/**
 * `meta.track`: held to the one circuit-name schema, with a refusal that
 * says which part of the rule it broke (trackNameFault's words). Kept as
 * written (not trimmed), so a stored document reads back byte for byte.
 */
const trackName = z.string({
  error: rule(`track must be a string of 1 to ${MAX_TRACK_CHARS} characters`),
})
  .check(
    z.refine((value: string) => trackNameSchema.safeParse(value).success, {
      error: (issue) => `track ${trackNameFault(issue.input as string) ?? TRACK_NAME_RULE}`,
    }),
  )
  .meta({ minLength: 1, maxLength: MAX_TRACK_CHARS });

const updatedAt = text(
  MAX_UPDATED_AT_CHARS,
  `updated_at must be a string of at most ${MAX_UPDATED_AT_CHARS} characters`,
);

function voteRule(value: unknown, runName: string, capped: boolean): string | null {
  if (!Array.isArray(value) || value.length !== 2) {
    return `vote must be [count, ${runName}]: two integers`;
  }
  const [count, run] = value;
  if (typeof count !== "number" || !isVoteCount(count)) {
    return `vote count must be an integer from 1 to ${RUN_LIMIT}`;
  }
  if (typeof run !== "number" || !isRunCounter(run)) {
    return `vote ${runName} must be an integer from 0 to ${RUN_LIMIT}`;
  }
  if (capped && !countFitsRun(count, run)) {
    return `vote count must not exceed max(${runName}, 1): a vote is one run, never one sample`;
  }
  return null;
}

/**
 * A [count, run] pair. Checked by hand rather than with z.tuple: a full
 * bundle holds hundreds of thousands of them and this is several times
 * faster. The metadata states the same shape for the JSON Schema.
 */
function voteEntry(runName: string, capped: boolean) {
  return z.custom<[number, number]>(
    (value) => voteRule(value, runName, capped) === null,
    { error: (issue) => voteRule(issue.input, runName, capped) ?? "invalid vote" },
  ).meta({
    type: "array",
    prefixItems: [
      { type: "integer", minimum: 1, maximum: RUN_LIMIT },
      { type: "integer", minimum: 0, maximum: RUN_LIMIT },
    ],
    minItems: 2,
    maxItems: 2,
  });
}

/** The part every version shares, read first to pick the version's schema. */
export const headerSchema = z.object({
  format: z.literal(BUNDLE_FORMAT, { error: rule(`format must be "${BUNDLE_FORMAT}"`) }),
  version: z.int({ error: rule("version must be an integer of at least 1") })
    .min(1, "version must be an integer of at least 1"),
}, { error: "a bundle must be a JSON object" });

const finishCrossing = z.object({
  x: coord,
  z: coord,
  hx: unit.default(0),
  hz: unit.default(0),
  lap: finite(0, LAP_LIMIT, `lap must be a finite number from 0 to ${LAP_LIMIT}`).default(0),
}, { error: rule("finish crossing must be an object") });

const finishCrossings = z.array(finishCrossing, {
  error: `finish_crossings must be null or an array of at most ${MAX_FINISH_CROSSINGS} crossings`,
}).max(
  MAX_FINISH_CROSSINGS,
  `finish_crossings must hold at most ${MAX_FINISH_CROSSINGS} crossings`,
).nullish();

function edges<T extends z.ZodType>(edge: T) {
  return z.array(edge, { error: rule(`edges must be an array of at most ${MAX_EDGES} edges`) })
    .max(MAX_EDGES, `edges must hold at most ${MAX_EDGES} edges`);
}

const metaLegacy = z.object({
  track: trackName,
  runs: runCounter.default(0),
  updated_at: updatedAt.default(""),
}, { error: rule("meta must be an object") });

const edgeV1 = z.object({
  x: coord,
  z: coord,
  hx: unit.default(0),
  hz: unit.default(0),
  side,
  kind,
}, { error: rule("edge must be an object") });

/** A version 1 document: one record per (cell, side, kind), no votes. */
export const bundleV1Schema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(1),
  meta: metaLegacy,
  edges: edges(edgeV1),
  finish_crossings: finishCrossings,
});

const legacyVote = voteEntry("run", false);

const legacyVotes = z.partialRecord(kind, legacyVote, {
  error: rule("votes must be an object of kind -> [count, run]"),
}).check(nonEmpty("votes must hold at least one kind"));

/** An edge of v2 to v4 with its `kind` and `votes` schemas, keys in document order. */
function edgeOf<K extends z.ZodType, V extends z.ZodType>(kindSchema: K, votesSchema: V) {
  return z.object({
    x: coord,
    z: coord,
    y: elevation.nullable().default(null),
    hx: unit.default(0),
    hz: unit.default(0),
    side,
    kind: kindSchema,
    votes: votesSchema,
    run: runCounter.default(0),
    tw: trackWidth.nullable().default(null),
  }, { error: rule("edge must be an object") });
}

// The kind is only hashed into the synthetic source id; the kind itself is recomputed.
const edgeLegacy = edgeOf(kind.catch("auto"), legacyVotes);

/** A version 2 or 3 document: one record per (cell, side), votes without sources. */
export const bundleLegacySchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  version: z.union([z.literal(2), z.literal(3)]),
  meta: metaLegacy,
  edges: edges(edgeLegacy),
  finish_crossings: finishCrossings,
});

/** A v4 vote entry: [count, last_run], two integers, count <= max(last_run, 1). */
export const voteEntrySchema = voteEntry("last_run", true);

const sourceVotes = z.record(sourceIdSchema, voteEntrySchema, {
  error: rule("a voted kind must map source ids to [count, last_run]"),
})
  .check(nonEmpty("a voted kind must hold at least one source"))
  .meta({ minProperties: 1 });

const votesV4 = z.partialRecord(kind, sourceVotes, {
  error: rule("votes must be an object of kind -> source id -> [count, last_run]"),
})
  .check(nonEmpty("votes must hold at least one kind"))
  .meta({ minProperties: 1 });

const edgeV4 = edgeOf(kind.optional(), votesV4);

const official = z.object({
  track: text(
    MAX_OFFICIAL_TRACK_CHARS,
    `official track must be a string of at most ${MAX_OFFICIAL_TRACK_CHARS} characters`,
  ).default(""),
  layout: text(
    MAX_OFFICIAL_TRACK_CHARS,
    `official layout must be a string of at most ${MAX_OFFICIAL_TRACK_CHARS} characters`,
  ).default(""),
  official_id: text(
    MAX_OFFICIAL_ID_CHARS,
    `official_id must be a string of at most ${MAX_OFFICIAL_ID_CHARS} characters`,
  ).default(""),
  official_name: text(
    MAX_OFFICIAL_NAME_CHARS,
    `official_name must be a string of at most ${MAX_OFFICIAL_NAME_CHARS} characters`,
  ).default(""),
  turns: integer(0, MAX_TURNS, `turns must be an integer from 0 to ${MAX_TURNS}`).default(0),
  length_m: finite(0, MAX_LENGTH_M, `length_m must be a finite number from 0 to ${MAX_LENGTH_M}`)
    .default(0),
  reverse: z.boolean({ error: "reverse must be a boolean" }).default(false),
}, { error: "official must be null or an object" }).nullish();

const metaV4 = z.object({
  track: trackName,
  // Recomputed from source_runs; checked so that a wild value is refused, not hidden.
  runs: runCounter.default(0),
  source_runs: z.record(sourceIdSchema, runCounter, {
    error: rule("source_runs must be an object of source id -> run counter"),
  }),
  updated_at: updatedAt.default(""),
  official,
}, { error: rule("meta must be an object") });

const name = text(MAX_NAME_CHARS, `name must be a string of at most ${MAX_NAME_CHARS} characters`);

const corner = z.object({
  n: integer(1, MAX_CORNERS, `n must be an integer from 1 to ${MAX_CORNERS}`).optional(),
  name: name.default(""),
  direction: z.enum(["L", "R", ""], { error: 'direction must be null, "", "L" or "R"' }).nullish(),
  apex: point,
  entry: point.nullish(),
  exit: point.nullish(),
  note: text(MAX_NOTE_CHARS, `note must be a string of at most ${MAX_NOTE_CHARS} characters`)
    .default(""),
}, { error: "corner must be an object" });

const section = z.object({
  n: integer(1, MAX_SECTIONS, `n must be an integer from 1 to ${MAX_SECTIONS}`).optional(),
  name: name.default(""),
  start: point,
  end: point,
}, { error: "section must be an object" });

/** A version 4 document, as it may arrive (kind, n and runs are recomputed later). */
export const bundleV4Schema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(4),
  meta: metaV4,
  edges: edges(edgeV4),
  finish_crossings: finishCrossings,
  corners: z.array(corner, {
    error: `corners must be null or an array of at most ${MAX_CORNERS} corners`,
  }).max(MAX_CORNERS, `corners must hold at most ${MAX_CORNERS} corners`).nullish(),
  sections: z.array(section, {
    error: `sections must be null or an array of at most ${MAX_SECTIONS} sections`,
  }).max(MAX_SECTIONS, `sections must hold at most ${MAX_SECTIONS} sections`).nullish(),
});

/** What {@link bundleV4Schema} yields before normalisation. */
export type ParsedV4 = z.output<typeof bundleV4Schema>;
/** What {@link bundleLegacySchema} yields. */
export type ParsedLegacy = z.output<typeof bundleLegacySchema>;
/** What {@link bundleV1Schema} yields. */
export type ParsedV1 = z.output<typeof bundleV1Schema>;
