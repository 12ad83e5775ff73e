/**
 * Zod schemas of `GET /api/health`, `GET /api/status` and the events of
 * `GET /api/events`, checked at compile time against the types the
 * application answers with.
 *
 * @module
 */
import { z } from "zod";
import type { AppEvent } from "../../app/events.ts";
import { liveStatusSchema } from "../../app/live.ts";
import { storeHealthSchema } from "../../app/store_status.ts";
import { telemetryStatusSchema } from "../../app/telemetry_source.ts";
import { coachingNotesSchema } from "../../core/analysis/coaching_notes_schema.ts";
import type { SameType } from "./same_type.ts";
import { sessionSchema } from "../../core/laps/session.ts";
import { lapSummarySchema } from "../../core/laps/lap.ts";
import { surveyStatusSchema } from "../../app/survey_status.ts";

const count = z.int().min(0);

/** What `GET /api/health` answers. */
export const healthSchema = z.strictObject({
  status: z.literal("ok"),
  version: z.string(),
  started_at: z.string(),
});

/** What `GET /api/status` answers; `telemetry` is null in a process without a UDP client. */
export const statusSchema = z.strictObject({
  telemetry: telemetryStatusSchema.nullable(),
  live: liveStatusSchema,
  store: z.strictObject({
    path: z.string().nullable(),
    data_bytes: count.nullable(),
    wal_bytes: count.nullable(),
    ...storeHealthSchema.shape,
  }).meta({ description: "the store's file and its size; nulls for an in-memory store" }),
});

/** One message of `GET /api/events`: its `event:` is `type`, its `data:` the whole object. */
export const appEventSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("session"),
    session: sessionSchema.nullable(),
    reason: z.string(),
  }),
  z.strictObject({ type: z.literal("lap"), lap: lapSummarySchema, session: sessionSchema }),
  z.strictObject({
    type: z.literal("notes"),
    session_id: z.int(),
    lap_number: z.int(),
    notes: coachingNotesSchema,
  }),
  z.strictObject({
    type: z.literal("bundle"),
    slug: z.string(),
    track: z.string(),
    reason: z.enum(["import", "rename", "delete", "survey", "authoring", "official"]),
  }),
  z.strictObject({
    type: z.literal("store"),
    reason: z.enum(["state", "counts"]),
    previous: z.enum(["ok", "low", "full", "read_only"]),
    status: storeHealthSchema,
  }),
  z.strictObject({
    type: z.literal("survey"),
    reason: z.enum(["start", "stop", "track", "mark", "coverage", "save"]),
    status: surveyStatusSchema,
  }),
]).meta({ id: "AppEvent" });

const checks: {
  appEvent: SameType<z.output<typeof appEventSchema>, AppEvent>;
} = { appEvent: true };
void checks;
