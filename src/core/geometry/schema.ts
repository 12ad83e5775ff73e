/**
 * The zod schema of the compiled geometry document, and the JSON Schema
 * published from it, so what is served and what is checked cannot disagree.
 *
 * @module
 */
import { z } from "zod";
import { COMPILED_FORMAT, COMPILED_VERSION, type CompiledTrack } from "./types.ts";

const num = z.number().finite();
const nullableNum = num.nullable();
const segment = z.tuple([num, num, num, num]);
const sideCoverage = z.object({
  surveyed_m: num.min(0),
  gap_m: num.min(0),
  pct: num.min(0).max(100),
  closed: z.boolean(),
});

const kindStretch = z.object({
  kind: z.enum(["wall", "runoff", "edge"]),
  line: z.array(z.tuple([num, num])).min(2),
});

/** The compiled document, version 1, as this build writes it. */
export const compiledTrackSchema = z.object({
  format: z.literal(COMPILED_FORMAT),
  version: z.literal(COMPILED_VERSION),
  track: z.string().min(1).max(80),
  slug: z.string().max(80),
  compiled_at: z.string().max(64),
  source: z.object({
    points: z.number().int().min(0),
    runs: z.number().int().min(0),
    sources: z.number().int().min(0),
    bundle_updated_at: z.string().max(64),
    app_version: z.string().max(32),
  }),
  borders: z.object({
    L: z.array(z.array(z.tuple([num, num, nullableNum])).min(2)),
    R: z.array(z.array(z.tuple([num, num, nullableNum])).min(2)),
  }),
  border_kinds: z.object({ L: z.array(kindStretch), R: z.array(kindStretch) }),
  gaps: z.object({ L: z.array(segment), R: z.array(segment) }),
  walls: z.array(segment),
  centerline: z.array(z.array(z.tuple([num, num, nullableNum, num.min(0)])).min(2)),
  road: z.array(z.tuple([num, num, num, num, num, num, num, num])),
  finish: segment.nullable(),
  coverage: z.object({ L: sideCoverage, R: sideCoverage, road_pct: num.min(0).max(100) }),
  corners: z.array(z.object({ n: z.number().int().min(1), name: z.string(), x: num, z: num })),
  _bundle_identity: z.tuple([z.number().int(), z.number().int()]),
});

/** Parses `raw` as a compiled document; null when it is not one (a damaged cache entry). */
export function parseCompiled(raw: unknown): CompiledTrack | null {
  const result = compiledTrackSchema.safeParse(raw);
  return result.success ? result.data as CompiledTrack : null;
}

/** JSON Schema (draft 2020-12) of the compiled document, version 1. */
export function compiledJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(compiledTrackSchema, { target: "draft-2020-12" }),
    title: "sim-datalogger compiled track geometry (format v1)",
    description:
      "Geometry derived from a track bundle's border evidence: ordered border polylines split at survey gaps, a centerline with elevation and width, the road surface as quads, gaps, wall ticks, the finish line and coverage. Rebuilt whenever the bundle changes; never exported or imported.",
  };
}
