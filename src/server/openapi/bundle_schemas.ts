/**
 * Zod schemas of the track bundle answers: the list, imports, authored
 * corners and sections, renames, deletions and the official match. Each is
 * checked at compile time against the type its service answers. Bundle and
 * compiled documents use the schemas that validate them
 * (src/core/bundle/schema.ts, src/core/geometry/schema.ts).
 *
 * @module
 */
import { z } from "zod";
import type { BundleImportResult, BundleListItem } from "../../app/bundles.ts";
import type { CornersDoc, RenameResult, SectionsDoc } from "../../app/bundle_authoring.ts";
import type { OfficialConfirmation, OfficialSuggestionResult } from "../../app/official.ts";
import type { SameType } from "./same_type.ts";

const num = z.number();
const count = z.int().min(0);
const point = z.strictObject({ x: num, z: num });

/** The official GT7 configuration a human confirmed for a circuit. */
export const officialSchema = z.strictObject({
  track: z.string(),
  layout: z.string(),
  official_id: z.string(),
  official_name: z.string(),
  turns: count,
  length_m: num,
  reverse: z.boolean(),
}).meta({ id: "Official" });

/** One row of `GET /api/track-bundles`. */
export const bundleListItemSchema = z.strictObject({
  slug: z.string(),
  track: z.string(),
  edges: count,
  runs: count,
  sources: count,
  updated_at: z.string(),
  official: officialSchema.nullable(),
  coverage: z.strictObject({
    left_pct: num,
    right_pct: num,
    road_pct: num,
    closed: z.boolean(),
    closed_left: z.boolean(),
    closed_right: z.boolean(),
  }).nullable(),
}).meta({ id: "BundleListItem" });

/** What `POST /api/track-bundles/import` answers. */
export const bundleImportResultSchema = z.strictObject({
  slug: z.string(),
  track: z.string(),
  generation: z.int(),
  edges_before: count,
  edges: count,
  added_edges: count,
  runs: count,
  source_runs: z.record(z.string(), count),
  updated_at: z.string(),
  official: officialSchema.nullable(),
  points: count,
  elevation_points: count,
  elevation_pct: num,
  manual_points: count,
  finish_crossings: count,
  corners: count,
  sections: count,
  sources: count,
  added_points: count,
  corners_kept: z.boolean(),
  sections_kept: z.boolean(),
  official_kept: z.boolean(),
}).meta({ id: "BundleImportResult" });

const cornerSchema = z.strictObject({
  n: z.int().min(1),
  name: z.string(),
  direction: z.enum(["L", "R"]).nullable(),
  apex: point,
  entry: point.nullable(),
  exit: point.nullable(),
  note: z.string(),
});

const sectionSchema = z.strictObject({
  n: z.int().min(1),
  name: z.string(),
  start: point,
  end: point,
});

/** What GET and PUT `/api/track-bundles/{slug}/corners` answer. */
export const cornersDocSchema = z.strictObject({
  slug: z.string(),
  track: z.string(),
  corners: z.array(cornerSchema),
}).meta({ id: "CornersDoc" });

/** What GET and PUT `/api/track-bundles/{slug}/sections` answer. */
export const sectionsDocSchema = z.strictObject({
  slug: z.string(),
  track: z.string(),
  sections: z.array(sectionSchema),
}).meta({ id: "SectionsDoc" });

/** What `PATCH /api/track-bundles/{slug}` answers. */
export const renameResultSchema = z.strictObject({
  slug: z.string(),
  track: z.string(),
  from: z.string(),
  merged: z.boolean(),
  edges: count,
  runs: count,
  generation: z.int(),
});

/** What `DELETE /api/track-bundles/{slug}` answers. */
export const bundleDeletionSchema = z.strictObject({
  status: z.literal("deleted"),
  slug: z.string(),
});

/** A suggestion is an official configuration with its country, score and reasons. */
const suggestionSchema = officialSchema.extend({
  country: z.string(),
  confidence: num,
  why: z.string(),
});

/** What `GET /api/track-bundles/{slug}/official-suggestion` answers. */
export const officialSuggestionSchema = z.strictObject({
  slug: z.string(),
  track: z.string(),
  official: officialSchema.nullable(),
  length_m: num.nullable(),
  suggestion: suggestionSchema.nullable(),
});

/** What `PUT /api/track-bundles/{slug}/official` answers. */
export const officialConfirmationSchema = z.strictObject({
  slug: z.string(),
  track: z.string(),
  generation: z.int(),
  official: officialSchema.nullable(),
});

const checks: {
  bundleListItem: SameType<z.output<typeof bundleListItemSchema>, BundleListItem>;
  bundleImportResult: SameType<z.output<typeof bundleImportResultSchema>, BundleImportResult>;
  cornersDoc: SameType<z.output<typeof cornersDocSchema>, CornersDoc>;
  sectionsDoc: SameType<z.output<typeof sectionsDocSchema>, SectionsDoc>;
  renameResult: SameType<z.output<typeof renameResultSchema>, RenameResult>;
  officialSuggestion: SameType<z.output<typeof officialSuggestionSchema>, OfficialSuggestionResult>;
  officialConfirmation: SameType<z.output<typeof officialConfirmationSchema>, OfficialConfirmation>;
} = {
  bundleListItem: true,
  bundleImportResult: true,
  cornersDoc: true,
  sectionsDoc: true,
  renameResult: true,
  officialSuggestion: true,
  officialConfirmation: true,
};
void checks;
