/**
 * Plain-text output for the headless faces (`serve`, and `start` until a
 * dashboard runs): one line per lap and session change, and a status line.
 * A lap line marks an incomplete lap with what it lacks.
 *
 * @module
 */
import type { AppEvent } from "../app/events.ts";
import { storeSentence } from "../app/store/store_health.ts";
import { formatLapTime } from "../core/laps/lap_time.ts";
import { coverageNote } from "../core/laps/coverage.ts";

/**
 * One log line for an application event, or null when it is not worth a
 * line. A lap line ends in bracketed flags; an incomplete lap's first flag
 * is `incomplete: <missing> of <expected> samples missing` (see
 * `coverageNote`).
 */
export function describeEvent(event: AppEvent): string | null {
  switch (event.type) {
    case "lap": {
      const { lap, session } = event;
      // An incomplete lap says what it lacks first: the line must not pass for a whole lap.
      const flags = [
        coverageNote(lap, lap.total_ticks),
        lap.counts_for_best ? "" : "not counted for best",
        lap.frames_dropped ? `${lap.frames_dropped} packets lost` : "",
        session.best_lap_time_ms === lap.time_ms && lap.counts_for_best ? "best" : "",
      ].filter(Boolean).join(", ");
      return `lap ${lap.number}  ${formatLapTime(lap.time_ms)}  ` +
        `${lap.total_ticks} samples  fuel ${lap.fuel_consumed.toFixed(2)}  ` +
        `session ${session.id}${session.track_name ? ` (${session.track_name})` : ""}` +
        (flags ? `  [${flags}]` : "");
    }
    case "notes":
      // The dashboard and the event stream carry the notes; the log keeps one line a lap.
      return null;
    case "bundle":
      return `bundle ${event.slug} (${event.track}): ${event.reason}`;
    case "session": {
      const session = event.session;
      if (session && event.reason === "created") {
        return `session ${session.id} started: ${session.car_name}`;
      }
      if (session) {
        const name = session.track_name ? `"${session.track_name}"` : "unnamed";
        return `session ${session.id} track ${name} (${event.reason.replaceAll("_", " ")})`;
      }
      return event.reason === "telemetry"
        ? null
        : `session ended (${event.reason.replaceAll("_", " ")})`;
    }
    case "store":
      // Once per state: a count changing within a state is the dashboard's and status's to show.
      return event.previous === event.status.state ? null : storeSentence(event.status);
    case "survey": {
      // Coverage changes arrive many times a lap; the dashboard shows them.
      if (event.reason === "coverage") return null;
      const s = event.status;
      return `survey ${event.reason}: ${s.running ? "running" : "stopped"}` +
        (s.track ? ` on "${s.track}"` : "") + (s.run === null ? "" : `, run ${s.run}`) +
        `, ${s.cells} cells`;
    }
  }
}
