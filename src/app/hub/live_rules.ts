/**
 * The rules of the race engineer's link (#40, /work/notes contract): what a
 * logger may send on its socket (a hello, then frames of at most
 * {@linkcode MAX_FRAME_BYTES} at most {@linkcode MAX_FRAMES_PER_S} a
 * second) and what a message to a driver may hold (the circuit-name rules
 * of src/core/track_name.ts, 1 to {@linkcode MAX_MESSAGE_CHARS}
 * characters).
 *
 * @module
 */
import { z } from "zod";
import { trackNameFault, trackNameProblem } from "../../core/track_name.ts";
import { driverNameSchema } from "./hub_drivers.ts";

/** Frames a socket may send in any second; more are dropped. */
export const MAX_FRAMES_PER_S = 10;
/** Largest socket message (a frame with its envelope), bytes; bigger ones are refused. */
export const MAX_FRAME_BYTES = 32 * 1024;
/** Longest message to a driver, characters. */
export const MAX_MESSAGE_CHARS = 140;
/** Seconds after its last frame a driver still counts as on track. */
export const ON_TRACK_S = 10;

/** Why `text` is no message to a driver (words following the field's name), or null. */
export function messageTextFault(text: string): string | null {
  const problem = trackNameProblem(text);
  // The circuit-name rule's own length (80) is not a message's: 140 is.
  if (problem === "blank" || problem === "control") return trackNameFault(text);
  const n = [...text.trim()].length;
  return n > MAX_MESSAGE_CHARS
    ? `is too long: ${n} characters, at most ${MAX_MESSAGE_CHARS}`
    : null;
}

/** POST /api/messages's body: a driver's name and the text, trimmed. */
export const messageBodySchema = z.strictObject({
  driver: driverNameSchema,
  text: z.string({
    error: (issue) => issue.input === undefined ? "is required" : "must be a string",
  }).superRefine((v, ctx) => {
    const fault = messageTextFault(v);
    if (fault !== null) ctx.addIssue({ code: "custom", message: fault });
  }).transform((v) => v.trim()).meta({
    description: `1 to ${MAX_MESSAGE_CHARS} characters, not blank, no control characters`,
  }),
});

/** A message to a driver as answered and as sent on the driver's socket (without `type`). */
export const messageSchema = z.strictObject({
  id: z.int(),
  driver: z.string(),
  text: z.string(),
  from: z.string(),
  sent_at: z.string(),
}).meta({ id: "DriverMessage" });

/** A driver on track, as GET /api/live lists it. */
export const onTrackSchema = z.strictObject({
  driver: z.string(),
  circuit: z.string().nullable(),
  track_name: z.string().nullable(),
  car_id: z.int().nullable(),
  lap: z.int().nullable(),
  last_frame_at: z.string(),
}).meta({ id: "DriverOnTrack" });

const optionalText = z.string().max(200).nullable().optional();

/** The logger's first socket message; what it says of the session is optional. */
export const helloSchema = z.looseObject({
  type: z.literal("hello"),
  last_message_id: z.int().min(0).nullable(),
  circuit: optionalText,
  track_name: optionalText,
  car_id: z.int().nullable().optional(),
});

/**
 * A live frame as the hub needs it: the logger's /api/live frame, read for
 * its time, lap and (when it has them) circuit and car; the rest passed on
 * as it came, so a newer logger's fields reach the engineer unchanged.
 */
export const linkFrameSchema = z.looseObject({
  packet_id: z.int(),
  at: z.string(),
  lap: z.int(),
  circuit: optionalText,
  track_name: optionalText,
  car_id: z.int().nullable().optional(),
});

/** One socket message from the logger. */
export const linkMessageSchema = z.discriminatedUnion("type", [
  helloSchema,
  z.looseObject({ type: z.literal("frame"), frame: linkFrameSchema }),
]);

/** A socket message read. */
export type LinkMessage = z.output<typeof linkMessageSchema>;

/**
 * A token bucket of {@linkcode MAX_FRAMES_PER_S} frames refilled at that
 * rate: a logger's timer that fires a little early or late now and then
 * loses nothing, while more than 10 a second, sustained or in a burst past
 * the bucket, is dropped.
 */
export class FrameRate {
  #tokens = MAX_FRAMES_PER_S;
  #at: number | null = null;
  /** Frames refused so far. */
  dropped = 0;

  /** True (and counted) when a frame at `nowMs` is within the rate; false (dropped) when not. */
  admit(nowMs: number): boolean {
    const since = this.#at === null ? 0 : Math.max(0, nowMs - this.#at);
    this.#at = nowMs;
    this.#tokens = Math.min(MAX_FRAMES_PER_S, this.#tokens + since * MAX_FRAMES_PER_S / 1000);
    if (this.#tokens < 1) {
      this.dropped++;
      return false;
    }
    this.#tokens -= 1;
    return true;
  }
}
