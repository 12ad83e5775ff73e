/**
 * The cue before the corner: during the lap after a noted lap, the corner
 * where that lap lost most (its first note) is announced on the live frame
 * (`cue`) from {@linkcode CUE_LEAD_M} before the point the note is for (the
 * reference's braking point) until the car reaches it, so the live page and
 * tools can show or speak "Turn 4: brake later" on the straight before it.
 * Follows the bus's `notes` events; the frame asks {@linkcode LiveCues.at}
 * with the lap counter and the distance into the lap.
 *
 * @module
 */
import type { z } from "zod";
import type { CoachingNote } from "../../core/analysis/coaching_notes.ts";
import type { AppDeps } from "../deps.ts";
import type { liveCueSchema } from "./live_frame.ts";

/** How far before the corner's braking point the cue starts, metres. */
export const CUE_LEAD_M = 300;

/** The cue for the corner ahead where the last lap lost most. */
export type LiveCue = z.output<typeof liveCueSchema>;

interface Plan {
  sessionId: number;
  /** The lap counter of the lap the cue is for. */
  lap: number;
  cue: LiveCue;
}

/** The live cue, from the notes announced on the bus. */
export class LiveCues {
  readonly #detach: () => void;
  #plan: Plan | null = null;

  /** Follows `deps.bus`'s `notes` events from now on, until {@linkcode close}. */
  constructor(deps: Pick<AppDeps, "bus">) {
    this.#detach = deps.bus.subscribe((event) => {
      if (event.type !== "notes") return;
      const note: CoachingNote | undefined = event.notes.notes[0];
      // A gain has nothing to correct (the notes give it no cue): nothing to say next lap.
      const text = note?.cue ?? null;
      const at = note?.cue_at_m ?? null;
      this.#plan = note && note.loss_s > 0 && text !== null && at !== null
        ? {
          sessionId: event.session_id,
          lap: event.lap_number + 1,
          cue: {
            text,
            n: note.n,
            name: note.name,
            loss_s: note.loss_s,
            lap_id: event.notes.lap_id,
            at_m: at,
          },
        }
        : null;
    });
  }

  /**
   * The cue for a car `distance` metres into lap `lap` of session
   * `sessionId`: the plan's when it is for that lap and the car is within
   * {@linkcode CUE_LEAD_M} before its point; otherwise null.
   */
  at(sessionId: number | null, lap: number, distance: number): LiveCue | null {
    const p = this.#plan;
    if (p === null || p.sessionId !== sessionId || p.lap !== lap) return null;
    return distance >= p.cue.at_m - CUE_LEAD_M && distance < p.cue.at_m ? p.cue : null;
  }

  /** Stops following the bus. */
  close(): void {
    this.#detach();
  }
}
