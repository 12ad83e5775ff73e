/**
 * The limits of SPEC.md section 8 that apply to track bundles, in one place
 * so the schema, the merge and the HTTP layer cannot drift apart.
 *
 * @module
 */

/** Most edges a bundle may hold, on import and after a merge. */
export const MAX_EDGES = 50_000;
/** Most finish crossings an imported document may carry, and a merge keeps. */
export const MAX_FINISH_CROSSINGS = 20;
/** Most hand-authored corners. */
export const MAX_CORNERS = 100;
/** Most hand-authored sections. */
export const MAX_SECTIONS = 40;
/** Longest `meta.track`, in characters (code points), before trimming. */
export const MAX_TRACK_CHARS = 80;
/** Longest corner or section name, in characters. */
export const MAX_NAME_CHARS = 60;
/** Longest corner note, in characters. */
export const MAX_NOTE_CHARS = 240;
/** Longest `meta.updated_at`, in characters. */
export const MAX_UPDATED_AT_CHARS = 64;
/** Longest official track and layout names. */
export const MAX_OFFICIAL_TRACK_CHARS = 80;
/** Longest official id. */
export const MAX_OFFICIAL_ID_CHARS = 32;
/** Longest official configuration name. */
export const MAX_OFFICIAL_NAME_CHARS = 160;
/** Largest official turn count. */
export const MAX_TURNS = 1000;
/** Largest official lap length, metres. */
export const MAX_LENGTH_M = 1_000_000;
/** Largest absolute world coordinate, metres. */
export const COORD_LIMIT = 10_000_000;
/** Largest absolute component of a unit direction vector (rounding slack included). */
export const UNIT_LIMIT = 1.0001;
/** Largest absolute axle track width, metres. */
export const TW_LIMIT = 10;
/** Largest run counter: runs, source_runs values, vote counts, run and last_run. */
export const RUN_LIMIT = 1_000_000;
/** Largest finish-crossing lap number. */
export const LAP_LIMIT = 1_000_000;
/** Largest import body, bytes (64 MiB). */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;
/** What a source id looks like: 6 to 32 lowercase hex characters. */
export const SOURCE_ID_PATTERN = /^[0-9a-f]{6,32}$/;
/** Most validation issues reported for one document; the rest are dropped. */
export const MAX_REPORTED_ISSUES = 100;
