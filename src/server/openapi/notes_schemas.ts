/**
 * Zod schema of the coaching notes (`GET /api/laps/{id}/notes`), checked at
 * compile time against the engine's type (src/core/analysis/coaching_notes.ts).
 *
 * @module
 */
import { z } from "zod";
import type { CoachingNotes } from "../../core/analysis/coaching_notes.ts";
import type { SameType } from "./same_type.ts";

const num = z.number();

/** The kinds of cause a note names. */
const causeKind = z.enum([
  "brake_earlier",
  "brake_later",
  "min_slower",
  "min_faster",
  "throttle_later",
  "throttle_earlier",
  "exit_slower",
  "exit_faster",
  "lockup",
  "wheelspin",
  "off_track",
  "kerb",
]);

/** One note: a corner where the lap lost (or gained) time, and why. */
export const coachingNoteSchema = z.strictObject({
  n: z.int().meta({ description: "the corner's stable number" }),
  name: z.string(),
  corner: z.string().meta({ description: 'the corner in words: "Turn 4 (Degner)"' }),
  loss_s: num.meta({ description: "the corner report's delta_s: positive when time was lost" }),
  causes: z.array(z.strictObject({
    kind: causeKind,
    value: num.nullable().meta({ description: "metres or km/h, positive; null for an event" }),
    text: z.string(),
  })).meta({ description: "largest first: braking, minimum, throttle, then exit speed, events" }),
  text: z.string(),
  cue: z.string().meta({ description: 'a short cue for before the corner: "Turn 4: brake later"' }),
  cue_at_m: num.meta({ description: "where the cue is for (the reference's braking point), m" }),
});

/** The body of `GET /api/laps/{id}/notes`. */
export const coachingNotesSchema = z.strictObject({
  lap_id: z.int(),
  ref_id: z.int(),
  source: z.enum(["authored", "circuit", "lap"]),
  lap_delta_s: num,
  notes_sum_s: num,
  summary: z.string(),
  notes: z.array(coachingNoteSchema).meta({
    description: "most time lost first, like the corner report",
  }),
}).meta({ id: "CoachingNotes" });

const check: SameType<z.output<typeof coachingNotesSchema>, CoachingNotes> = true;
void check;
