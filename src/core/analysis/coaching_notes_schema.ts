/**
 * The shape of coaching notes (`GET /api/laps/{id}/notes` and the `notes`
 * event): one zod schema, and the types as its `z.output`, so the answer's
 * published schema and the type the analysis builds cannot drift. The
 * descriptions are the published ones.
 *
 * @module
 */
import { z } from "zod";

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

/** One cause of a note. */
const noteCauseSchema = z.strictObject({
  kind: causeKind,
  /** The figure's size (metres or km/h, 1 dp, always positive); null for an event. */
  value: num.nullable().meta({ description: "metres or km/h, positive; null for an event" }),
  /** The cause in words. */
  text: z.string(),
});

/** One corner where the lap lost (or gained) time against the reference. */
export const coachingNoteSchema = z.strictObject({
  /** The corner's stable number and name (empty when the bundle gives none). */
  n: z.int().meta({ description: "the corner's stable number" }),
  name: z.string(),
  /** The corner in words: "Turn 4", or "Turn 4 (Degner)". */
  corner: z.string().meta({ description: 'the corner in words: "Turn 4 (Degner)"' }),
  /** The corner report's `delta_s`: positive when the lap lost time there. */
  loss_s: num.meta({ description: "the corner report's delta_s: positive when time was lost" }),
  /**
   * Largest first: braking point, minimum speed and throttle by multiples of
   * their thresholds, then the exit speed (their outcome), then events in lap
   * order, one per type, of the types the reference did not have there.
   */
  causes: z.array(noteCauseSchema).meta({
    description: "largest first: braking, minimum, throttle, then exit speed, events",
  }),
  /** The whole note in words. */
  text: z.string(),
  /**
   * A short cue for before the corner: "Turn 4: brake later"; null where
   * the lap gained time (nothing to correct).
   */
  cue: z.string().nullable().meta({
    description: 'a short cue for before the corner: "Turn 4: brake later"; null for a gain',
  }),
  /**
   * Where the cue is for, metres of the analysed lap: the reference's
   * braking point carried over, else the lap's own, else the corner's entry;
   * null with the cue.
   */
  cue_at_m: num.nullable().meta({
    description: "where the cue is for (the reference's braking point), m; null for a gain",
  }),
});

/** The body of `GET /api/laps/{id}/notes`. */
export const coachingNotesSchema = z.strictObject({
  lap_id: z.int(),
  /** The reference's id in this store; null for a lap that is not in it (the team's best from the hub). */
  ref_id: z.int().nullable().meta({
    description:
      "the reference lap's id; null when it is the team's best from the hub (ref_hub_lap_id)",
  }),
  /** The hub's id of the reference when it is the team's best from the hub (`--reference team`); else null. */
  ref_hub_lap_id: z.string().nullable().meta({
    description: "the hub's lap id when the reference is the team's best from the hub; else null",
  }),
  /** The teammate who drove the reference; null for the driver's own lap (here or on the hub). */
  ref_driver: z.string().nullable().meta({
    description: "the teammate who drove the reference; null for your own lap",
  }),
  source: z.enum(["authored", "circuit", "lap"]),
  /**
   * Where the lap's distance axis (`cue_at_m`) starts, metres along the
   * circuit map's loop from its line: the corner report's `lap_start_m`.
   */
  lap_start_m: num.nullable().meta({
    description: "where the lap's metres start, metres along the circuit map's loop; null " +
      "unless the corners are a loop's map",
  }),
  /** The lap's time minus the reference's, s (3 dp). */
  lap_delta_s: num,
  /** Sum of the notes' `loss_s`, s (3 dp). */
  notes_sum_s: num,
  /** The total and the sum in words, then what the notes cannot know. */
  summary: z.string(),
  /**
   * What the notes cannot know, in words: "no pedal data: braking points
   * unknown" when the lap or the reference carries no brake channel (and
   * so for the throttle); empty when both carry both.
   */
  unknown: z.array(z.string()).meta({
    description: 'what the notes cannot know: "no pedal data: braking points unknown"',
  }),
  /** Sorted like the corner report: most time lost first, then by corner number. */
  notes: z.array(coachingNoteSchema).meta({
    description: "most time lost first, like the corner report",
  }),
}).meta({ id: "CoachingNotes" });

/** One cause of a note. */
export type NoteCause = z.output<typeof noteCauseSchema>;

/** One corner where the lap lost (or gained) time against the reference. */
export type CoachingNote = z.output<typeof coachingNoteSchema>;

/** The body of `GET /api/laps/{id}/notes`. */
export type CoachingNotes = z.output<typeof coachingNotesSchema>;
