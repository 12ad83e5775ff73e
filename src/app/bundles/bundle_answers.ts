/**
 * What the track bundle services answer: the list, imports, authored
 * corners and sections, renames and the official match. One zod schema
 * each (published in the OpenAPI document), and the types as their
 * `z.output` (re-exported by bundles.ts, bundle_authoring.ts and
 * official.ts), so the answer and its published schema cannot drift.
 *
 * @module
 */
import { z } from "zod";

const num = z.number();
const count = z.int().min(0);
const point = z.strictObject({ x: num, z: num });

/** The official GT7 configuration a human confirmed for a circuit. */
const officialSchema = z.strictObject({
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
  /** Cells (border records). */
  edges: count,
  runs: count,
  /** Installations that contributed runs. */
  sources: count,
  updated_at: z.string(),
  official: officialSchema.nullable(),
  /** Share of the circuit the survey covers (from the compiled geometry); null without cells. */
  coverage: z.strictObject({
    /** Left border surveyed, % of its known length. */
    left_pct: num,
    /** Right border surveyed, % of its known length. */
    right_pct: num,
    /** Left border with the right border found across, %. */
    road_pct: num,
    /** Both borders close into loops, so the percentages are of whole laps. */
    closed: z.boolean(),
    /** The left border closes into a loop, so left_pct is of a whole lap. */
    closed_left: z.boolean(),
    /** The right border closes into a loop, so right_pct is of a whole lap. */
    closed_right: z.boolean(),
  }).nullable(),
}).meta({ id: "BundleListItem" });

/** One row of the bundle list. */
export type BundleListItem = z.output<typeof bundleListItemSchema>;

/** What an import did (`POST /api/track-bundles/import`; REFERENCE.md 1.9, with our `*_kept` flags). */
export const bundleImportResultSchema = z.strictObject({
  /** Where the bundle is stored. */
  slug: z.string(),
  /** meta.track as stored: the override, else the document's own name. */
  track: z.string(),
  /** The stored generation; compiled geometry is cached against it. */
  generation: z.int(),
  /** Cells before the import (0 when the circuit was new). */
  edges_before: count,
  /** Cells after the import. */
  edges: count,
  /** Cells the import added; 0 on a repeated import. */
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
  /** Cells the import added; 0 on a repeated import. */
  added_points: count,
  /** Incoming corners were dropped because local ones exist. */
  corners_kept: z.boolean(),
  /** Incoming sections were dropped because local ones exist. */
  sections_kept: z.boolean(),
  /** An incoming official match was dropped because a local one exists. */
  official_kept: z.boolean(),
}).meta({ id: "BundleImportResult" });

/** What an import did. */
export type BundleImportResult = z.output<typeof bundleImportResultSchema>;

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

/** The corners of one circuit. */
export type CornersDoc = z.output<typeof cornersDocSchema>;

/** What GET and PUT `/api/track-bundles/{slug}/sections` answer. */
export const sectionsDocSchema = z.strictObject({
  slug: z.string(),
  track: z.string(),
  sections: z.array(sectionSchema),
}).meta({ id: "SectionsDoc" });

/** The sections of one circuit. */
export type SectionsDoc = z.output<typeof sectionsDocSchema>;

/** What a rename did (`PATCH /api/track-bundles/{slug}`). */
export const renameResultSchema = z.strictObject({
  /** The slug the bundle now lives under. */
  slug: z.string(),
  /** The stored name. */
  track: z.string(),
  /** The slug it came from. */
  from: z.string(),
  /** True when it was merged into a bundle already stored under the new slug. */
  merged: z.boolean(),
  edges: count,
  runs: count,
  generation: z.int(),
});

/** What a rename did. */
export type RenameResult = z.output<typeof renameResultSchema>;

/** A suggestion is an official configuration with its country, score and reasons. */
const suggestionSchema = officialSchema.extend({
  country: z.string(),
  confidence: num,
  why: z.string(),
});

/** What `GET /api/track-bundles/{slug}/official-suggestion` answers. */
export const officialSuggestionSchema = z.strictObject({
  slug: z.string(),
  /** The bundle's circuit name, which the suggestion is made from. */
  track: z.string(),
  /** The confirmed match, or null. */
  official: officialSchema.nullable(),
  /** The measured lap length used (the newest signature of this circuit), or null. */
  length_m: num.nullable(),
  /** The suggestion; null when nothing scores high enough or a match is already confirmed. */
  suggestion: suggestionSchema.nullable(),
});

/** What GET /api/track-bundles/{slug}/official-suggestion answers. */
export type OfficialSuggestionResult = z.output<typeof officialSuggestionSchema>;

/** What `PUT /api/track-bundles/{slug}/official` answers. */
export const officialConfirmationSchema = z.strictObject({
  slug: z.string(),
  track: z.string(),
  /** The stored generation after the change. */
  generation: z.int(),
  official: officialSchema.nullable(),
});

/** What PUT /api/track-bundles/{slug}/official answers. */
export type OfficialConfirmation = z.output<typeof officialConfirmationSchema>;
