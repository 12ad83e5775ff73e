/**
 * The hub link's status (`hub` in GET /api/status), in a leaf module of
 * types only, so the status schema and the dashboard can name it.
 *
 * @module
 */
import { z } from "zod";

const count = z.int().min(0);

/**
 * Where this logger's pushes to the team hub stand: the response schema,
 * and through `z.output` the type the service answers with.
 */
export const hubStatusSchema = z.strictObject({
  /** The hub's base URL (`--hub`). */
  url: z.string(),
  /** Laps and bundles in the outbox, not yet taken by the hub. */
  waiting: count,
  /** Laps and bundles the hub took since the process started. */
  sent: count,
  /** Entries the hub refused for good since the process started, kept aside with its reason. */
  parked: count,
  /** `idle`, `sending`, `backoff` (the hub is down or offline: tried again later) or `stopped` (the token was refused). */
  state: z.enum(["idle", "sending", "backoff", "stopped"]),
  /** Why the last try failed, or null once one went through. */
  last_error: z.string().nullable(),
  /** The live link (`--share-live`, issue #40); absent when the logger does not share live. */
  live: z.strictObject({
    /** The socket to the hub is up (the hello went). */
    connected: z.boolean(),
    /** Frames the hub was sent since the process started. */
    frames_sent: count,
    /** Frames dropped since the start: the link was down, or too slow to take them (never queued). */
    frames_dropped: count,
  }).optional(),
}).meta({ id: "HubStatus" });

/** Where this logger's pushes to the team hub stand. */
export type HubStatus = z.output<typeof hubStatusSchema>;

/** What POST /api/hub/push answers (202): what was queued, and the link's status after it. */
export const hubPushResultSchema = z.strictObject({
  /** The laps queued, in the order asked. */
  queued: z.array(z.int()),
  hub: hubStatusSchema,
}).meta({ id: "HubPushResult" });

/** What a push queued. */
export type HubPushResult = z.output<typeof hubPushResultSchema>;
