/**
 * Zod schemas of `GET /api/health` and `GET /api/status`, composed of the
 * schemas that define the application's status types (the events'
 * schema is src/app/events.ts).
 *
 * @module
 */
import { z } from "zod";
import { liveStatusSchema } from "../../app/live/live.ts";
import { storeHealthSchema } from "../../app/store/store_status.ts";
import { hubStatusSchema } from "../../app/hub_link/hub_status.ts";
import { telemetryStatusSchema } from "../../app/live/telemetry_source.ts";

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
  /** The team hub link (`--hub`): what waits, what went, the last failure; null without a hub. */
  hub: hubStatusSchema.nullable(),
});
