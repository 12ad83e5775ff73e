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
 * @module
 */
import { BadRequest, NotFound } from "../../core/errors.ts";
import type { AnalysisService } from "../analysis/analysis.ts";
import type { AppDeps } from "../deps.ts";
import type { LapHook, LiveService } from "./live.ts";

/** Adds to `live` the lap hook that announces each stored lap's notes on `deps.bus`. */
export function announceNotes(
  deps: Pick<AppDeps, "bus" | "log">,
  live: Pick<LiveService, "onLap">,
  analysis: Pick<AnalysisService, "lapNotes">,
): void {
  const hook: LapHook = async (lap, session) => {
    try {
      const notes = await analysis.lapNotes(lap, session, null);
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
