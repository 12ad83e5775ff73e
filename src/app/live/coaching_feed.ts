/**
 * Coaching notes on the bus: as each live lap is stored, its notes against
 * the default reference (see AnalysisService.lapNotes) are worked out and
 * announced as a `notes` event, so tools can show or speak them and the
 * live cue (live_cue.ts) can follow. It runs as a lap hook, after the hooks
 * added before it (the session's naming, which decides the circuit and so
 * the reference), inside the live service's write queue: a lap's notes are
 * announced just before the lap itself, in lap order, and
 * `LiveService.flush` waits for them. A lap without a reference (a
 * session's first) or that the engine refuses (no distance) gets no event.
 *
 * With `--reference team` (#38) and the team's best at the lap's circuit in
 * its car kept (fetched from the hub by the live frames, never asked for
 * here), the notes, and so the next lap's cue, are against that lap, as the
 * gap and the brake markers are: `ref_id` null (it is not in this store),
 * `ref_hub_lap_id` and `ref_driver` saying whose it is.
 *
 * @module
 */
import { BadRequest, NotFound } from "../../core/errors.ts";
import { circuitOf } from "../../core/bundle/slug.ts";
import type { CoachingNotes } from "../../core/analysis/coaching_notes.ts";
import type { Lap } from "../../core/laps/lap.ts";
import type { Session } from "../../core/laps/session.ts";
import type { AnalysisService } from "../analysis/analysis.ts";
import type { TeamReference } from "../hub_link/team_reference.ts";
import type { AppDeps } from "../deps.ts";
import type { LapHook, LiveService } from "./live.ts";

type NotesAnalysis = Pick<AnalysisService, "lapNotes" | "notesAgainst">;

/**
 * Adds to `live` the lap hook that announces each stored lap's notes on
 * `deps.bus`: against the team's best kept by `team` at the lap's named
 * circuit in its car when there is one, else against the default reference.
 */
export function announceNotes(
  deps: Pick<AppDeps, "bus" | "log">,
  live: Pick<LiveService, "onLap">,
  analysis: NotesAnalysis,
  team: Pick<TeamReference, "cached"> | null = null,
): void {
  const hook: LapHook = async (lap, session) => {
    try {
      const notes = await teamNotes(analysis, team, lap, session) ??
        await analysis.lapNotes(lap, session, null);
      deps.bus.emit({ type: "notes", session_id: session.id, lap_number: lap.number, notes });
    } catch (err) {
      // No reference yet (a session's first lap), or a lap that covers no distance: nothing to say.
      if (!(err instanceof NotFound || err instanceof BadRequest)) {
        deps.log.warn(`coaching notes of lap ${lap.id} failed`, err);
      }
    }
  };
  live.onLap(hook);
}

/** The notes of `lap` against the team's best kept at its circuit in its car; null when none is. */
async function teamNotes(
  analysis: NotesAnalysis,
  team: Pick<TeamReference, "cached"> | null,
  lap: Lap,
  session: Session,
): Promise<CoachingNotes | null> {
  // The circuit as the live frames key the team's lap by: an unnamed session has none.
  const circuit = team === null ? null : circuitOf(session.track_name);
  if (circuit === null) return null;
  const best = await team!.cached(circuit, session.car_id);
  if (best === null) return null;
  // The id is the noted lap's own only so the engine's messages name a lap; the answer says the hub's.
  const ref = { id: lap.id, time_ms: best.timeMs, samples: best.samples };
  const notes = await analysis.notesAgainst(lap, session, ref);
  return {
    ...notes,
    ref_id: null,
    ref_hub_lap_id: best.hubLapId,
    ref_driver: best.mine ? null : best.driver,
  };
}
