/**
 * Coaching notes on one line of the dashboard: the top notes' cues with
 * the time each corner lost ("Turn 3: brake later +0.28 · Turn 5: carry
 * more speed +0.10"; a gain by its corner alone, "Turn 4 -0.12"), or the
 * notes' summary when no corner passed the threshold. The words are the
 * notes' own (src/core/analysis/coaching_words.ts).
 *
 * @module
 */
import { type CoachingNotes, signedSeconds } from "../core/analysis/coaching_notes.ts";

/** Notes a line shows at most. */
export const TOP_NOTES = 3;

/** The line of `notes`: its first {@linkcode TOP_NOTES} notes, or its summary without any. */
export function notesLine(notes: CoachingNotes, top = TOP_NOTES): string {
  if (notes.notes.length === 0) return notes.summary;
  // A gain has no cue (nothing to correct): the corner alone, with its time.
  return notes.notes.slice(0, top).map((n) => `${n.cue ?? n.corner} ${signedSeconds(n.loss_s)}`)
    .join(" · ");
}

/**
 * The dashboard's notice for lap `lapNumber`'s notes: `Lap 3: ` and its
 * top notes; without a noted corner, the lap's gap said once
 * (`Lap 2 was +0.08 s against the reference; no corner noted`), not the
 * notes' summary behind a second "Lap".
 */
export function lapNotesNotice(lapNumber: number, notes: CoachingNotes): string {
  if (notes.notes.length === 0) {
    return `Lap ${lapNumber} was ${signedSeconds(notes.lap_delta_s)} s against the reference; ` +
      "no corner noted";
  }
  return `Lap ${lapNumber}: ${notesLine(notes)}`;
}
