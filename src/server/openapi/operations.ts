/**
 * The registry: one operation per route of the HTTP API, each naming the
 * zod schemas the route and its use case validate with (exported from where
 * they live) and the schema of its answer (the *_schemas.ts files here,
 * checked against the services' types).
 *
 * @module
 */
import { z } from "zod";
import { bestsQuerySchema, lapListQuerySchema } from "../../app/lap_listing.ts";
import {
  compareQuerySchema,
  consistencyQuerySchema,
  cornersQuerySchema,
  sectorsQuerySchema,
} from "../../app/analysis.ts";
import { notesQuerySchema } from "../../app/analysis.ts";
import { sessionPatchSchema } from "../../app/session_patch.ts";
import { markSchema, startSchema, trackSchema } from "../../app/survey_body.ts";
import { cornersSchema, renameSchema, sectionsSchema } from "../../app/bundle_authoring.ts";
import { bundleSlugSchema } from "../../app/bundle_slug.ts";
import { motecQuerySchema } from "../../app/motec_export.ts";
import { lapFileSchema } from "../../core/laps/lap_file_schema.ts";
import { bundleLegacySchema, bundleV1Schema, bundleV4Schema } from "../../core/bundle/schema.ts";
import { compiledTrackSchema } from "../../core/geometry/schema.ts";
import { idPathSchema } from "../params.ts";
import { getLive } from "../routes/live.ts";
import { getStrategy } from "../routes/strategy.ts";
import { TRACK_OPERATIONS } from "../routes/tracks.ts";
import { OFFICIAL_OPERATIONS } from "../routes/official.ts";
import type { Operation } from "./operation.ts";
import {
  bestItemSchema,
  lapDeletionSchema,
  lapImportResultSchema,
  lapListItemSchema,
  lapSchema,
  lapSummarySchema,
  sessionDeletionSchema,
  sessionSchema,
} from "./session_schemas.ts";
import {
  comparisonSchema,
  consistencySchema,
  cornerReportSchema,
  sectorBestsSchema,
} from "./analysis_schemas.ts";
import {
  bundleDeletionSchema,
  bundleImportResultSchema,
  bundleListItemSchema,
  cornersDocSchema,
  renameResultSchema,
  sectionsDocSchema,
} from "./bundle_schemas.ts";
import { surveyStatusSchema } from "./survey_schemas.ts";
import { appEventSchema, healthSchema, statusSchema } from "./status_schemas.ts";
import { coachingNotesSchema } from "./notes_schemas.ts";
import { PAGE_OPERATIONS } from "./page_operations.ts";

const idParams = z.object({ id: idPathSchema });
const slugParams = z.object({ slug: bundleSlugSchema });

/** A bundle of any version an import reads (validateBundle picks by `version`). */
const anyBundle = z.union([bundleV4Schema, bundleLegacySchema, bundleV1Schema]);

/** Every route of the API. */
export const OPERATIONS: readonly Operation[] = [
  {
    method: "get",
    path: "/",
    tag: "status",
    summary: "The live page: the driver's second screen (docs/live_page.md)",
    ok: { type: "text/html", description: "the live page; its script and style follow" },
  },
  {
    method: "get",
    path: "/live.js",
    tag: "status",
    summary: "The live page's script",
    ok: { type: "text/javascript", description: "an ES module, embedded in the binary" },
  },
  {
    method: "get",
    path: "/cues.js",
    tag: "status",
    summary: "The live page's cue rules (an ES module live.js imports)",
    ok: { type: "text/javascript", description: "an ES module, embedded in the binary" },
  },
  {
    method: "get",
    path: "/live.css",
    tag: "status",
    summary: "The live page's style",
    ok: { type: "text/css", description: "embedded in the binary" },
  },
  ...PAGE_OPERATIONS,
  // Status
  {
    method: "get",
    path: "/api/health",
    tag: "status",
    summary: "The process is up",
    ok: { schema: healthSchema },
  },
  {
    method: "get",
    path: "/api/status",
    tag: "status",
    summary: "Telemetry, live session and store",
    ok: { schema: statusSchema },
  },
  {
    method: "get",
    path: "/api/openapi.json",
    tag: "status",
    summary: "This document",
    ok: { description: "an OpenAPI 3.1 document" },
  },
  // Sessions
  {
    method: "get",
    path: "/api/sessions",
    tag: "sessions",
    summary: "Every session, newest first",
    ok: { schema: z.array(sessionSchema) },
  },
  {
    method: "get",
    path: "/api/sessions/{id}",
    tag: "sessions",
    summary: "One session",
    params: idParams,
    ok: { schema: sessionSchema },
    problems: [404],
  },
  {
    method: "get",
    path: "/api/sessions/{id}/laps",
    tag: "sessions",
    summary: "The session's laps, oldest first",
    params: idParams,
    ok: { schema: z.array(lapSummarySchema) },
    problems: [404],
  },
  {
    method: "get",
    path: "/api/sessions/{id}/export.ld",
    tag: "sessions",
    summary: "Every lap of the session as one MoTeC i2 log (.ld); markers are export.ldx",
    params: idParams,
    query: motecQuerySchema,
    ok: { type: "application/octet-stream", description: "MoTeC i2 .ld log" },
    problems: [404],
  },
  {
    method: "get",
    path: "/api/sessions/{id}/export.ldx",
    tag: "sessions",
    summary: "The lap markers (.ldx) that go beside the session's export.ld",
    params: idParams,
    query: motecQuerySchema,
    ok: { type: "application/xml", description: "MoTeC i2 .ldx markers" },
    problems: [404],
  },
  {
    method: "patch",
    path: "/api/sessions/{id}",
    tag: "sessions",
    summary: "Name, notes, exclusion from bests",
    params: idParams,
    body: { schema: sessionPatchSchema },
    ok: { schema: sessionSchema },
    problems: [404, 413],
  },
  {
    method: "delete",
    path: "/api/sessions/{id}",
    tag: "sessions",
    summary: "Delete a session and its laps",
    params: idParams,
    ok: { schema: sessionDeletionSchema },
    problems: [404, 409],
  },
  // Laps
  {
    method: "get",
    path: "/api/laps",
    tag: "laps",
    summary: "Laps across sessions",
    query: lapListQuerySchema,
    ok: { schema: z.array(lapListItemSchema) },
  },
  {
    method: "get",
    path: "/api/laps/bests",
    tag: "laps",
    summary: "The best lap of every circuit and car",
    query: bestsQuerySchema,
    ok: { schema: z.array(bestItemSchema) },
  },
  {
    method: "get",
    path: "/api/laps/{id}",
    tag: "laps",
    summary: "One lap with its samples",
    params: idParams,
    ok: { schema: lapSchema },
    problems: [404],
  },
  {
    method: "delete",
    path: "/api/laps/{id}",
    tag: "laps",
    summary: "Delete a lap",
    params: idParams,
    ok: { schema: lapDeletionSchema },
    problems: [404, 409],
  },
  {
    method: "get",
    path: "/api/laps/{id}/notes",
    tag: "laps",
    summary: "Coaching notes: what the lap did differently from a reference, corner by corner",
    params: idParams,
    query: notesQuerySchema,
    ok: { schema: coachingNotesSchema },
    problems: [404],
  },
  {
    method: "get",
    path: "/api/laps/{id}/export.json",
    tag: "laps",
    summary: "The lap as a lap file (attachment)",
    params: idParams,
    ok: { schema: lapFileSchema },
    problems: [404],
  },
  {
    method: "get",
    path: "/api/laps/{id}/export.csv",
    tag: "laps",
    summary: "The lap as MoTeC CSV, streamed",
    params: idParams,
    ok: { type: "text/csv", description: "MoTeC i2 CSV" },
    problems: [404],
  },
  {
    method: "get",
    path: "/api/laps/{id}/export.ld",
    tag: "laps",
    summary: "The lap as a MoTeC i2 log (.ld); its markers are export.ldx",
    params: idParams,
    query: motecQuerySchema,
    ok: { type: "application/octet-stream", description: "MoTeC i2 .ld log" },
    problems: [404],
  },
  {
    method: "get",
    path: "/api/laps/{id}/export.ldx",
    tag: "laps",
    summary: "The lap markers (.ldx) that go beside export.ld",
    params: idParams,
    query: motecQuerySchema,
    ok: { type: "application/xml", description: "MoTeC i2 .ldx markers" },
    problems: [404],
  },
  {
    method: "post",
    path: "/api/laps/import",
    tag: "laps",
    summary: "Import a lap file (version 1 or 2)",
    body: { schema: lapFileSchema, description: "a lap file, at most 64 MiB" },
    ok: { status: 201, schema: lapImportResultSchema },
    problems: [413],
  },
  // Analysis
  {
    method: "get",
    path: "/api/analysis/compare",
    tag: "analysis",
    summary: "Laps over distance against a reference",
    query: compareQuerySchema,
    ok: { schema: comparisonSchema },
    problems: [404],
  },
  {
    method: "get",
    path: "/api/analysis/corners",
    tag: "analysis",
    summary: "A lap's corners against a reference",
    query: cornersQuerySchema,
    ok: { schema: cornerReportSchema },
    problems: [404],
  },
  {
    method: "get",
    path: "/api/analysis/sectors",
    tag: "analysis",
    summary: "Best sectors and theoretical best of a circuit and car",
    query: sectorsQuerySchema,
    ok: { schema: sectorBestsSchema },
    problems: [404],
  },
  {
    method: "get",
    path: "/api/analysis/consistency",
    tag: "analysis",
    summary: "Consistency of the best n laps of a circuit and car",
    query: consistencyQuerySchema,
    ok: { schema: consistencySchema },
    problems: [404],
  },
  // Track bundles
  {
    method: "get",
    path: "/api/track-bundles",
    tag: "bundles",
    summary: "Every stored bundle",
    ok: { schema: z.array(bundleListItemSchema) },
  },
  {
    method: "get",
    path: "/api/track-bundles/{slug}",
    tag: "bundles",
    summary: "The bundle as a version 4 document",
    params: slugParams,
    ok: { schema: bundleV4Schema },
    problems: [404],
  },
  {
    method: "post",
    path: "/api/track-bundles/import",
    tag: "bundles",
    summary: "Import a bundle of version 1 to 4",
    query: z.object({
      track: z.string().optional().meta({ description: "a name replacing meta.track; not blank" }),
    }),
    body: { schema: anyBundle, description: "a bundle, at most 64 MiB" },
    ok: { schema: bundleImportResultSchema },
    problems: [409, 413],
  },
  {
    method: "patch",
    path: "/api/track-bundles/{slug}",
    tag: "bundles",
    summary: "Rename, merging into an existing bundle",
    params: slugParams,
    body: { schema: renameSchema },
    ok: { schema: renameResultSchema },
    problems: [404, 409, 413],
  },
  {
    method: "delete",
    path: "/api/track-bundles/{slug}",
    tag: "bundles",
    summary: "Delete a bundle",
    params: slugParams,
    ok: { schema: bundleDeletionSchema },
    problems: [404, 409],
  },
  {
    method: "get",
    path: "/api/track-bundles/{slug}/corners",
    tag: "bundles",
    summary: "Hand-authored corners",
    params: slugParams,
    ok: { schema: cornersDocSchema },
    problems: [404],
  },
  {
    method: "put",
    path: "/api/track-bundles/{slug}/corners",
    tag: "bundles",
    summary: "Replace the corners",
    params: slugParams,
    body: { schema: cornersSchema, description: "{corners: [...]} or the bare array" },
    ok: { schema: cornersDocSchema },
    problems: [404, 409, 413],
  },
  {
    method: "get",
    path: "/api/track-bundles/{slug}/sections",
    tag: "bundles",
    summary: "Hand-authored sections",
    params: slugParams,
    ok: { schema: sectionsDocSchema },
    problems: [404],
  },
  {
    method: "put",
    path: "/api/track-bundles/{slug}/sections",
    tag: "bundles",
    summary: "Replace the sections",
    params: slugParams,
    body: { schema: sectionsSchema, description: "{sections: [...]} or the bare array" },
    ok: { schema: sectionsDocSchema },
    problems: [404, 409, 413],
  },
  {
    method: "get",
    path: "/api/track-bundles/{slug}/compiled",
    tag: "bundles",
    summary: "Compiled geometry",
    params: slugParams,
    ok: { schema: compiledTrackSchema },
    problems: [404],
  },
  {
    method: "get",
    path: "/api/track-bundles/{slug}/map.svg",
    tag: "bundles",
    summary: "An SVG map",
    params: slugParams,
    ok: { type: "image/svg+xml", description: "the map" },
    problems: [404],
  },
  ...OFFICIAL_OPERATIONS,
  // Schemas
  {
    method: "get",
    path: "/api/schemas/track-bundle.v4.json",
    tag: "schemas",
    summary: "JSON Schema of the bundle format",
    ok: { type: "application/schema+json" },
  },
  {
    method: "get",
    path: "/api/schemas/lap.v2.json",
    tag: "schemas",
    summary: "JSON Schema of the lap file",
    ok: { type: "application/schema+json" },
  },
  {
    method: "get",
    path: "/api/schemas/track-compiled.v1.json",
    tag: "schemas",
    summary: "JSON Schema of the compiled document",
    ok: { type: "application/schema+json" },
  },
  // Survey
  {
    method: "get",
    path: "/api/survey",
    tag: "survey",
    summary: "The survey status",
    ok: { schema: surveyStatusSchema },
  },
  {
    method: "post",
    path: "/api/survey/start",
    tag: "survey",
    summary: "Start a survey",
    body: { schema: startSchema, required: false },
    ok: { schema: surveyStatusSchema },
    problems: [409, 413],
  },
  {
    method: "post",
    path: "/api/survey/stop",
    tag: "survey",
    summary: "Stop and save the run",
    ok: { schema: surveyStatusSchema },
    problems: [409],
  },
  {
    method: "post",
    path: "/api/survey/discard",
    tag: "survey",
    summary: "Drop a stopped run that waits for its name",
    ok: { schema: surveyStatusSchema },
    problems: [409],
  },
  {
    method: "post",
    path: "/api/survey/track",
    tag: "survey",
    summary: "Set the circuit label",
    body: { schema: trackSchema },
    ok: { schema: surveyStatusSchema },
    problems: [409, 413],
  },
  {
    method: "post",
    path: "/api/survey/mark",
    tag: "survey",
    summary: "Arm or disarm a manual mark",
    body: { schema: markSchema },
    ok: { schema: surveyStatusSchema },
    problems: [409, 413],
  },
  // Tracks
  ...TRACK_OPERATIONS,
  // Live
  {
    method: "get",
    path: "/api/events",
    tag: "live",
    summary: "Server-Sent Events of the application",
    ok: {
      type: "text/event-stream",
      schema: appEventSchema,
      description: "each message's data is one event as JSON",
    },
  },
  getLive,
  getStrategy,
];
