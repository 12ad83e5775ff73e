/**
 * Zod schemas of `GET /api/health`, `GET /api/status` and the events of
 * `GET /api/events`, checked at compile time against the types the
 * application answers with.
 *
 * @module
 */
import { z } from "zod";
import type { AppEvent } from "../../app/events.ts";
import type { LiveStatus } from "../../app/live.ts";
import { storeHealthSchema } from "../../app/store_status.ts";
import type { TelemetryStatus } from "../../app/telemetry_source.ts";
import { coachingNotesSchema } from "./notes_schemas.ts";
import type { SameType } from "./same_type.ts";
import { sessionSchema } from "../../core/laps/session.ts";
import { lapSummarySchema } from "../../core/laps/lap.ts";
import { surveyStatusSchema } from "../../app/survey_status.ts";

const count = z.int().min(0);
const packetFormat = z.enum(["A", "B", "~", "C"]);

/** What `GET /api/health` answers. */
export const healthSchema = z.strictObject({
  status: z.literal("ok"),
  version: z.string(),
  started_at: z.string(),
});

/** The telemetry stream's health. */
export const telemetryStatusSchema = z.strictObject({
  connected: z.boolean(),
  console: z.string().nullable(),
  format: packetFormat,
  listen: z.string(),
  packets_received: count,
  decoded: count,
  rejected_size: count,
  rejected_magic: count,
  rejected: count,
  duplicates: count,
  missing: count,
  packet_format: packetFormat.nullable(),
  packets_per_second: z.number(),
  heartbeats_sent: count,
  last_packet_at: z.string().nullable(),
  restarts: count.optional(),
  acks_sent: count.optional(),
  receive_buffer_bytes: count.nullable().optional(),
  receive_buffer_note: z.string().optional(),
  kernel_drops: count.nullable().optional(),
  record: z.strictObject({
    path: z.string(),
    bytes: count,
    files_rotated: count,
    error: z.string().nullable(),
  }).nullable().optional(),
  relay: z.strictObject({
    listen: z.string().nullable(),
    requested_format: packetFormat,
    console_format: packetFormat.nullable(),
    apps: z.array(z.strictObject({
      address: z.string(),
      kind: z.enum(["heartbeat", "forward"]),
      format: packetFormat,
      packets_sent: count,
      packets_short: count,
      last_heartbeat_at: z.string().nullable(),
    })).max(8),
    refused_not_local: count,
    refused_full: count,
    refused_not_a_format: count,
    expired: count,
    send_errors: count,
  }).nullable().optional().meta({
    description: "the relay to other apps (--relay, --forward); null when nothing is relayed",
  }),
}).meta({ id: "TelemetryStatus" });

/** The live session's state. */
export const liveStatusSchema = z.strictObject({
  session: sessionSchema.nullable(),
  car_id: z.int().nullable(),
  current_lap: z.int().nullable(),
  buffered_samples: count,
  laps_recorded: count,
  duplicates: count,
  missing: count,
}).meta({ id: "LiveStatus" });

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
  telemetryStatus: SameType<z.output<typeof telemetryStatusSchema>, TelemetryStatus>;
  liveStatus: SameType<z.output<typeof liveStatusSchema>, LiveStatus>;
  appEvent: SameType<z.output<typeof appEventSchema>, AppEvent>;
} = { telemetryStatus: true, liveStatus: true, appEvent: true };
void checks;
