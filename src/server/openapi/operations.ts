/**
 * The registry: every route of the HTTP API, in the document's order. Each
 * API operation is declared once, in its route module, where
 * src/server/declared_route.ts both registers it on the router (with its
 * schemas as the validators that run) and hands it here; the page files
 * are listed from the tables their routes serve.
 *
 * @module
 */
import { declareRoute } from "../declared_route.ts";
import { ANALYSIS_OPERATIONS } from "../routes/analysis.ts";
import { AUTHORING_OPERATIONS } from "../routes/bundle_authoring.ts";
import { getBundle, importBundle, listBundles } from "../routes/bundles.ts";
import { getCompiled, getMapSvg } from "../routes/compiled.ts";
import { getEvents } from "../routes/events.ts";
import { HOME_OPERATIONS } from "../routes/home.ts";
import { LAP_OPERATIONS } from "../routes/laps.ts";
import { getLive } from "../routes/live.ts";
import { OFFICIAL_OPERATIONS } from "../routes/official.ts";
import { SCHEMA_OPERATIONS } from "../routes/schemas.ts";
import { SESSION_OPERATIONS } from "../routes/sessions.ts";
import { getHealth, getStatus } from "../routes/status.ts";
import { getStrategy } from "../routes/strategy.ts";
import { SURVEY_OPERATIONS } from "../routes/survey.ts";
import { TRACK_OPERATIONS } from "../routes/tracks.ts";
import type { Operation } from "./operation.ts";
import { PAGE_OPERATIONS } from "./page_operations.ts";

/** GET /api/openapi.json: declared here, beside the registry it answers from. */
export const getOpenApi = declareRoute({
  method: "get",
  path: "/api/openapi.json",
  tag: "status",
  summary: "This document",
  ok: { description: "an OpenAPI 3.1 document" },
});

/** Every route of the API. */
export const OPERATIONS: readonly Operation[] = [
  ...HOME_OPERATIONS,
  ...PAGE_OPERATIONS,
  // Status
  getHealth,
  getStatus,
  getOpenApi,
  // Sessions
  ...SESSION_OPERATIONS,
  // Laps
  ...LAP_OPERATIONS,
  // Analysis
  ...ANALYSIS_OPERATIONS,
  // Track bundles
  listBundles,
  getBundle,
  importBundle,
  ...AUTHORING_OPERATIONS,
  getCompiled,
  getMapSvg,
  ...OFFICIAL_OPERATIONS,
  // Schemas
  ...SCHEMA_OPERATIONS,
  // Survey
  ...SURVEY_OPERATIONS,
  // Tracks
  ...TRACK_OPERATIONS,
  // Live
  getEvents,
  getLive,
  getStrategy,
];
