/**
 * The one gate a bundle passes on its way in: unknown JSON becomes a
 * validated document of its own version, or an `ImportRejected` listing every
 * failure with its JSON path. Nothing downstream re-checks.
 *
 * @module
 */
import { BadRequest, ImportRejected } from "../errors.ts";
import { issuesFromZod } from "./issues.ts";
import { resolveKind } from "./kind.ts";
import { MAX_TRACK_CHARS, RUN_LIMIT } from "./limits.ts";
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
  type Edge,
  type FinishCrossing,
  KINDS,
  type LegacyVotes,
  type Official,
  type Point,
  type Section,
  type ValidatedBundle,
} from "./types.ts";
import { copyVotes, reconcileSourceRuns, sumRuns } from "./votes.ts";
import { fastEdgesV4 } from "./fast_edges.ts";
import { markNormalised } from "./normalised.ts";

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

function parsedEdges(parsed: ParsedV4["edges"]): Edge[] {
  return parsed.map((e) => ({
    x: e.x,
    z: e.z,
    y: e.y,
    hx: e.hx,
    hz: e.hz,
    side: e.side,
    kind: resolveKind(e.votes),
    // Vote entries are checked in place, not rebuilt, by the schema.
    votes: copyVotes(e.votes),
    run: e.run,
    tw: e.tw,
  }));
}

function finishV4(parsed: ParsedV4, edges: Edge[]): BundleV4 {
  const sourceRuns = reconcileSourceRuns(parsed.meta.source_runs, edges);
  const runs = sumRuns(sourceRuns);
  if (runs > RUN_LIMIT) {
    throw new ImportRejected({
      path: "$.meta.source_runs",
      message: `the run counters must sum to at most ${RUN_LIMIT}`,
    });
  }
  return markNormalised({
    format: BUNDLE_FORMAT,
    version: 4,
    meta: {
      track: parsed.meta.track.trim(),
      runs,
      source_runs: sourceRuns,
      updated_at: parsed.meta.updated_at,
      official: official(parsed.meta.official),
    },
    edges,
    finish_crossings: crossings(parsed.finish_crossings),
    corners: authoredCorners(parsed.corners),
    sections: authoredSections(parsed.sections),
  });
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
    edges: parsed.edges.map((e) => ({
      x: e.x,
      z: e.z,
      y: e.y,
      hx: e.hx,
      hz: e.hz,
      side: e.side,
      kind: e.kind,
      votes: copyLegacyVotes(e.votes),
      run: e.run,
      tw: e.tw,
    })),
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
  return validate(raw, true);
}

/**
 * {@linkcode validateBundle} by the schemas alone, never taking the fast
 * path for v4 edges: the reference that path is held to (tests compare the
 * two). The same documents pass, with the same result; the same fail, with
 * the same issues.
 */
export function validateBundleBySchema(raw: unknown): ValidatedBundle {
  return validate(raw, false);
}

function validate(raw: unknown, fast: boolean): ValidatedBundle {
  const header = headerSchema.safeParse(raw);
  if (!header.success) throw new ImportRejected(issuesFromZod(header.error.issues));
  const version = header.data.version;
  if (version > CURRENT_VERSION) {
    throw new ImportRejected({
      path: "$.version",
      message: `bundle is format v${version}; this build reads v${CURRENT_VERSION} — upgrade first`,
    });
  }
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
  const quick = fast ? fastV4(raw as Record<string, unknown>) : null;
  if (quick !== null) return quick;
  const parsed = bundleV4Schema.safeParse(raw);
  if (!parsed.success) throw new ImportRejected(issuesFromZod(parsed.error.issues));
  return finishV4(parsed.data, parsedEdges(parsed.data.edges));
}

/** The members of a v4 document other than `edges`, as the schema reads them. */
const V4_REST = ["format", "version", "meta", "finish_crossings", "corners", "sections"] as const;

/**
 * The v4 document with its edges checked by {@linkcode fastEdgesV4} and
 * every other member by the schema (they are small), or null when either
 * declines; the full schema then decides, and reports every failure.
 */
function fastV4(raw: Record<string, unknown>): BundleV4 | null {
  const edges = fastEdgesV4(raw.edges);
  if (edges === null) return null;
  // Only the members present, read once each, as the schema reads them.
  const rest: Record<string, unknown> = { edges: [] };
  for (const key of V4_REST) if (key in raw) rest[key] = raw[key];
  const parsed = bundleV4Schema.safeParse(rest);
  return parsed.success ? finishV4(parsed.data, edges) : null;
}

/**
 * The `?track=` override of an import, as stored: trimmed, then cut to 80
 * characters. An overlong name is shortened, never refused.
 *
 * @throws {BadRequest} when nothing is left after trimming.
 */
export function validateTrackOverride(raw: string): string {
  const trimmed = raw.trim();
  if (trimmed === "") {
    const message = "track override cannot be blank";
    throw new BadRequest(message, [{ path: "track", message }]);
  }
  return [...trimmed].slice(0, MAX_TRACK_CHARS).join("").trim();
}
