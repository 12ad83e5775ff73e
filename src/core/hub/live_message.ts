/**
 * A message from the team hub to this driver (issue #40), as the hub sends
 * it on the live socket and as the logger's live frames carry it. Its text
 * ends up on the dashboard's one notice line and is spoken by the live
 * page, so what arrives is checked here (the hub's rule: 1..140 characters,
 * no control characters) rather than trusted.
 *
 * @module
 */
import { z } from "zod";
import { trackNameProblem } from "../track_name.ts";

/** Longest message text, characters (the hub's rule). */
export const MAX_MESSAGE_CHARS = 140;

const text = z.string().refine(
  (s) =>
    [...s].length <= MAX_MESSAGE_CHARS && trackNameProblem(s) !== "blank" &&
    trackNameProblem(s) !== "control",
  { message: `must be 1 to ${MAX_MESSAGE_CHARS} characters, not blank, no control characters` },
);

/** One message to the driver: its hub id, text, sender and when it was posted (ISO 8601). */
export const liveMessageSchema = z.strictObject({
  /** The hub's id of the message; ids only grow. */
  id: z.int().min(1),
  text,
  /** Who sent it (the hub's name of their token). */
  from: z.string().min(1).max(80).refine((s) => trackNameProblem(s) !== "control", {
    message: "must hold no control characters",
  }),
  /** When it was posted at the hub, ISO 8601. */
  sent_at: z.string().min(1).max(40),
}).meta({ id: "LiveMessage" });

/** A message to the driver. */
export type LiveMessage = z.output<typeof liveMessageSchema>;

/** What the hub sends on the live socket: `{"type":"message", ...LiveMessage}`. */
const hubMessageSchema = liveMessageSchema.extend({ type: z.literal("message") });

/**
 * The message in one text the hub sent on the live socket, or null when it
 * is something else (another type the logger does not know, or not JSON);
 * throws an Error naming the field and the rule for a message that breaks
 * one, so a bad one is told in the log, never shown.
 */
export function parseHubMessage(data: string): LiveMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || !("type" in value)) return null;
  if (value.type !== "message") return null;
  const r = hubMessageSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`hub message ${issue.path.join(".") || "(root)"} ${issue.message}`);
  }
  const { type: _type, ...message } = r.data;
  return message;
}
