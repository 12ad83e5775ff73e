/**
 * Coaching notes on the bus: when a lap is stored and announced (`lap`), its
 * notes against the default reference (see AnalysisService.notes) are
 * worked out in the background and announced as a `notes` event, so tools
 * can show or speak them and the live cue (live_cue.ts) can follow. Laps
 * are noted one after another, in the order announced; a lap without a
 * reference gets no event.
 *
 * @module
 */
import { NotFound } from "../core/errors.ts";
import type { AnalysisService } from "./analysis.ts";
import type { AppDeps } from "./deps.ts";

/** Announces the notes of every lap announced on the bus. */
export class CoachingFeed {
  readonly #detach: () => void;
  #queue: Promise<void> = Promise.resolve();
  #closed = false;

  /** Follows `deps.bus` from now on, until {@linkcode close}. */
  constructor(
    deps: Pick<AppDeps, "bus" | "log">,
    services: { analysis: Pick<AnalysisService, "notes"> },
  ) {
    this.#detach = deps.bus.subscribe((event) => {
      if (event.type !== "lap") return;
      const { lap, session } = event;
      this.#queue = this.#queue.then(async () => {
        if (this.#closed) return;
        try {
          const notes = await services.analysis.notes(lap.id, {});
          if (this.#closed) return;
          deps.bus.emit({ type: "notes", session_id: session.id, lap_number: lap.number, notes });
        } catch (err) {
          // No reference yet (a session's first lap), or the lap deleted meanwhile: nothing to say.
          if (!(err instanceof NotFound)) {
            deps.log.warn(`coaching notes of lap ${lap.id} failed`, err);
          }
        }
      });
    });
  }

  /** Resolves once the notes of every lap announced so far were announced (or given up). */
  settled(): Promise<void> {
    return this.#queue;
  }

  /** Stops following the bus; notes being worked out are not announced. */
  close(): void {
    this.#closed = true;
    this.#detach();
  }
}
