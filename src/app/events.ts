/**
 * Everything the application announces on its bus, in one leaf module (it
 * imports only schemas): services, faces and tests name events from here.
 *
 * @module
 */
import { z } from "zod";
import { coachingNotesSchema } from "../core/analysis/coaching_notes_schema.ts";
import { lapSummarySchema } from "../core/laps/lap.ts";
import { sessionSchema } from "../core/laps/session.ts";
import { surveyStatusSchema } from "./survey/survey_status.ts";
import { storeHealthSchema } from "./store/store_status.ts";

/**
 * Everything the application announces, as one message of `GET /api/events`
 * (its `event:` is `type`, its `data:` the whole object): the published
 * schema, and through `z.output` the {@linkcode AppEvent} type.
 */
export const appEventSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("session"),
    session: sessionSchema.nullable(),
    reason: z.string(),
  }),
  z.strictObject({ type: z.literal("lap"), lap: lapSummarySchema, session: sessionSchema }),
  z.strictObject({
    type: z.literal("notes"),
    /** The noted lap's session and number (its lap counter). */
    session_id: z.int(),
    lap_number: z.int(),
    notes: coachingNotesSchema,
  }),
  z.strictObject({
    type: z.literal("bundle"),
    slug: z.string(),
    track: z.string(),
    /** What changed it: an import (merge), a rename (merge into the new slug), a delete, a survey save, an edit of corners/sections, or the official match. */
    reason: z.enum(["import", "rename", "delete", "survey", "authoring", "official"]),
  }),
  z.strictObject({
    type: z.literal("store"),
    /** What changed: the `state`, or only the `counts` (laps waiting or dropped) or whether it is writable. */
    reason: z.enum(["state", "counts"]),
    /** The state before this change (the same as `status.state` when only a count changed). */
    previous: storeHealthSchema.shape.state,
    status: storeHealthSchema,
  }),
  z.strictObject({
    type: z.literal("survey"),
    /** What happened: a start, stop, circuit label, mark, changed coverage, or a save. */
    reason: z.enum(["start", "stop", "track", "mark", "coverage", "save"]),
    status: surveyStatusSchema,
  }),
]).meta({ id: "AppEvent" });

/** Everything the application announces. */
export type AppEvent = z.output<typeof appEventSchema>;

/** A subscriber. */
export type Listener = (event: AppEvent) => void;
