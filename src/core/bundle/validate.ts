/**
 * The one gate a bundle passes on its way in: unknown JSON becomes a
 * validated document of its own version, or an `ImportRejected` listing every
 * failure with its JSON path. Nothing downstream re-checks.
 *
 * @module
 */
import { BadRequest, ImportRejected } from "../errors.ts";
import { issuesFromZod } from "./issues.ts";
import { RUN_LIMIT } from "./limits.ts";
import {
  bundleLegacySchema,
  bundleV1Schema,
  bundleV4Schema,
  headerSchema,
  type ParsedLegacy,
  type ParsedV1,
  type ParsedV4,
} from "./schema.ts";
import {
  BUNDLE_FORMAT,
  type BundleLegacy,
  type BundleV1,
  type BundleV4,
  type Corner,
  CURRENT_VERSION,
  edgeWith,
  type FinishCrossing,
  KINDS,
  type LegacyVotes,
  type Official,
  type Point,
  type Section,
  V4_MEMBERS,
  type ValidatedBundle,
} from "./types.ts";
import { reconcileSourceRuns, reconcileTableRuns, sumRuns } from "./votes.ts";
import type { BundleTable, EdgeTable } from "./edge_table.ts";
import { docOf, tableOfEdges, withEdges } from "./table_convert.ts";
import { trackNameSchema } from "../track_name.ts";

function copyLegacyVotes(votes: LegacyVotes): LegacyVotes {
  const out: LegacyVotes = {};
  for (const kind of KINDS) {
    const entry = votes[kind];
    if (entry !== undefined) out[kind] = [entry[0], entry[1]];
  }
  return out;
}

type ParsedCrossings = ParsedV4["finish_crossings"];

function crossings(parsed: ParsedCrossings): FinishCrossing[] {
  return (parsed ?? []).map((c) => ({ x: c.x, z: c.z, hx: c.hx, hz: c.hz, lap: c.lap }));
}

function point(p: Point): Point {
  return { x: p.x, z: p.z };
}

function official(parsed: ParsedV4["meta"]["official"]): Official | null {
  if (parsed === null || parsed === undefined) return null;
  return {
    track: parsed.track,
    layout: parsed.layout,
    official_id: parsed.official_id,
    official_name: parsed.official_name,
    turns: parsed.turns,
    length_m: parsed.length_m,
    reverse: parsed.reverse,
  };
}

/**
 * Validated corners as stored: renumbered 1..N in list order (a corner's own
 * `n` is ignored), a direction other than L or R read as none.
 */
export function authoredCorners(parsed: ParsedV4["corners"]): Corner[] {
  return (parsed ?? []).map((c, i) => ({
    n: i + 1,
    name: c.name,
    direction: c.direction === "L" || c.direction === "R" ? c.direction : null,
    apex: point(c.apex),
    entry: c.entry ? point(c.entry) : null,
    exit: c.exit ? point(c.exit) : null,
    note: c.note,
  }));
}

/** Validated sections as stored: renumbered 1..N in list order. */
export function authoredSections(parsed: ParsedV4["sections"]): Section[] {
  return (parsed ?? []).map((s, i) => ({
    n: i + 1,
    name: s.name,
    start: point(s.start),
    end: point(s.end),
  }));
}

function parsedEdges(parsed: ParsedV4["edges"]): EdgeTable {
  // The table resolves every kind and puts every vote map in serialised order.
  return tableOfEdges(parsed.map((e) => edgeWith(e, "auto" as const, e.votes)));
}

/** Every member of a v4 document but its edges, given its reconciled run counters. */
function finishMembers(
  parsed: ParsedV4,
  sourceRuns: Record<string, number>,
): Omit<BundleV4, "edges"> {
  const runs = sumRuns(sourceRuns);
  if (runs > RUN_LIMIT) {
    throw new ImportRejected({
      path: "$.meta.source_runs",
      message: `the run counters must sum to at most ${RUN_LIMIT}`,
    });
  }
  return {
    format: BUNDLE_FORMAT,
    version: 4,
    meta: {
      track: parsed.meta.track.trim(),
      runs,
      source_runs: sourceRuns,
      updated_at: parsed.meta.updated_at,
      official: official(parsed.meta.official),
    },
    finish_crossings: crossings(parsed.finish_crossings),
    corners: authoredCorners(parsed.corners),
    sections: authoredSections(parsed.sections),
  };
}

/** How a v4 document's run counters are read. */
export interface RunCounterOptions {
  /**
   * Raise each source's counter to the highest last_run it holds in a vote
   * (default true), as an imported document is read. A stored bundle is read
   * with false: a survey saves the votes of a run still being driven without
   * counting that run until it ends, and a read must not count it either.
   */
  reconcile?: boolean;
}

/** The counters of `sourceRuns`, keys sorted, raised to the watermarks of `edges` when `reconcile`. */
function runCounters(
  sourceRuns: Record<string, number>,
  edges: EdgeTable,
  opts: RunCounterOptions,
): Record<string, number> {
  return opts.reconcile === false
    ? reconcileSourceRuns(sourceRuns, [])
    : reconcileTableRuns(sourceRuns, edges);
}

/**
 * A v4 bundle from its edges, already validated into `edges`, and the other
 * members of `raw` (an object holding a v4 document's members; its own
 * `edges`, if any, is ignored), validated by the schema as
 * {@linkcode validateBundle} validates them: `meta.track` trimmed, corners
 * and sections renumbered, `source_runs` with keys sorted (raised to the
 * watermarks of `edges` unless `opts.reconcile` is false), `meta.runs`
 * their sum.
 *
 * @throws {ImportRejected} listing every failure of those members with its JSON path.
 */
export function validateMembersV4(
  raw: Record<string, unknown>,
  edges: EdgeTable,
  opts: RunCounterOptions = {},
): BundleTable {
  // Only the members present, read once each, as the schema reads them.
  const rest: Record<string, unknown> = { edges: [] };
  for (const key of V4_MEMBERS) if (key in raw) rest[key] = raw[key];
  const parsed = bundleV4Schema.safeParse(rest);
  if (!parsed.success) throw new ImportRejected(issuesFromZod(parsed.error.issues));
  const sourceRuns = runCounters(parsed.data.meta.source_runs, edges, opts);
  return withEdges(finishMembers(parsed.data, sourceRuns), edges);
}

function finishV1(parsed: ParsedV1): BundleV1 {
  return {
    format: BUNDLE_FORMAT,
    version: 1,
    meta: {
      track: parsed.meta.track.trim(),
      runs: parsed.meta.runs,
      updated_at: parsed.meta.updated_at,
    },
    edges: parsed.edges.map((e) => ({
      x: e.x,
      z: e.z,
      hx: e.hx,
      hz: e.hz,
      side: e.side,
      kind: e.kind,
    })),
    finish_crossings: crossings(parsed.finish_crossings),
  };
}

function finishLegacy(parsed: ParsedLegacy): BundleLegacy {
  return {
    format: BUNDLE_FORMAT,
    version: parsed.version,
    meta: {
      track: parsed.meta.track.trim(),
      runs: parsed.meta.runs,
      updated_at: parsed.meta.updated_at,
    },
    edges: parsed.edges.map((e) => edgeWith(e, e.kind, copyLegacyVotes(e.votes))),
    finish_crossings: crossings(parsed.finish_crossings),
  };
}

/**
 * Validates a parsed JSON value as a bundle of any version from 1 to 4 and
 * returns it rebuilt: unknown keys dropped, defaults filled, `meta.track`
 * trimmed. For v4 the kinds are resolved from the votes (the stored kind is
 * never used), corners and sections are renumbered 1..N, `source_runs` is
 * raised to the vote watermarks with keys sorted, and `meta.runs` is their sum.
 *
 * @throws {ImportRejected} listing every failure with its JSON path, when any
 *   rule of SPEC.md 4.1, 7 or 8 is broken or the version is newer than 4.
 */
export function validateBundle(raw: unknown): ValidatedBundle {
  return validate(raw);
}

/** The version a document's header declares, refusing a bad header or a newer version. */
function header(raw: unknown): number {
  const parsed = headerSchema.safeParse(raw);
  if (!parsed.success) throw new ImportRejected(issuesFromZod(parsed.error.issues));
  const version = parsed.data.version;
  if (version > CURRENT_VERSION) {
    throw new ImportRejected({
      path: "$.version",
      message: `bundle is format v${version}; this build reads v${CURRENT_VERSION} — upgrade first`,
    });
  }
  return version;
}

function validate(raw: unknown): ValidatedBundle {
  const version = header(raw);
  if (version === 1) {
    const parsed = bundleV1Schema.safeParse(raw);
    if (!parsed.success) throw new ImportRejected(issuesFromZod(parsed.error.issues));
    return finishV1(parsed.data);
  }
  if (version === 2 || version === 3) {
    const parsed = bundleLegacySchema.safeParse(raw);
    if (!parsed.success) throw new ImportRejected(issuesFromZod(parsed.error.issues));
    return finishLegacy(parsed.data);
  }
  return docOf(validateTableV4(raw));
}

/**
 * A v4 document (its header already read) validated by the schema into a
 * table. This is the JSON boundary: a large import arrives as bytes and is
 * read by `bundle_bytes.ts`, which comes here only for what it declines.
 */
function validateTableV4(raw: unknown, opts: RunCounterOptions = {}): BundleTable {
  const parsed = bundleV4Schema.safeParse(raw);
  if (!parsed.success) throw new ImportRejected(issuesFromZod(parsed.error.issues));
  const edges = parsedEdges(parsed.data.edges);
  const sourceRuns = runCounters(parsed.data.meta.source_runs, edges, opts);
  return withEdges(finishMembers(parsed.data, sourceRuns), edges);
}

/**
 * {@linkcode validateBundle} for a document that is to be merged: a v4
 * document comes back as a table. Older versions are validated and returned as
 * {@linkcode validateBundle} returns them, for the caller to upgrade.
 * `opts` says how a v4 document's run counters are read.
 *
 * @throws {ImportRejected} exactly when {@linkcode validateBundle} throws, with the same issues.
 */
export function validateBundleTable(
  raw: unknown,
  opts: RunCounterOptions = {},
): BundleTable | Exclude<ValidatedBundle, BundleV4> {
  const version = header(raw);
  if (version === 4) return validateTableV4(raw, opts);
  return validate(raw) as Exclude<ValidatedBundle, BundleV4>;
}

/**
 * The `?track=` override of an import, as stored: trimmed, held to the one
 * circuit-name schema (src/core/track_name.ts) like every other name. A
 * name too long is refused, never cut: a stored name that breaks the rule
 * would make the bundle unreadable.
 *
 * @throws {BadRequest} "track RULE", its issue at `track`, for a blank name,
 *   one over 80 characters or one holding a control character.
 */
export function validateTrackOverride(raw: string): string {
  const result = trackNameSchema.safeParse(raw);
  if (result.success) return result.data;
  const message = result.error.issues[0].message;
  throw new BadRequest(`track ${message}`, [{ path: "track", message }]);
}
