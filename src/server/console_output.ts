/**
 * Plain-text output for the headless faces (`serve`, and `start` until a
 * dashboard runs): one line per lap and session change, and a status line.
 *
 * @module
 */
import type { App } from "../app/context.ts";
import type { AppEvent } from "../app/bus.ts";
import { formatLapTime } from "../core/laps/lap_time.ts";

/** One log line for an application event, or null when it is not worth a line. */
export function describeEvent(event: AppEvent): string | null {
  switch (event.type) {
    case "lap": {
      const { lap, session } = event;
      const flags = [
        lap.counts_for_best ? "" : "not counted for best",
        lap.frames_dropped ? `${lap.frames_dropped} packets lost` : "",
        session.best_lap_time_ms === lap.time_ms && lap.counts_for_best ? "best" : "",
      ].filter(Boolean).join(", ");
      return `lap ${lap.number}  ${formatLapTime(lap.time_ms)}  ` +
        `${lap.total_ticks} samples  fuel ${lap.fuel_consumed.toFixed(2)}  ` +
        `session ${session.id}${session.track_name ? ` (${session.track_name})` : ""}` +
        (flags ? `  [${flags}]` : "");
    }
    case "session":
      if (event.session) {
        return `session ${event.session.id} started: ${event.session.car_name}`;
      }
      return event.reason === "telemetry"
        ? null
        : `session ended (${event.reason.replace("_", " ")})`;
  }
}

/** A one-line summary of telemetry and the live session. */
export function statusLine(app: App, url: string): string {
  const t = app.telemetryStatus();
  const live = app.live.status();
  const link = t?.connected
    ? `connected ${t.packet_format ?? "?"} ${t.packets_per_second.toFixed(0)} pkt/s`
    : t?.console
    ? `waiting for ${t.console}`
    : `listening on ${t?.listen ?? "?"} (no --console given)`;
  const drops = t && (t.rejected || t.missing)
    ? `  rejected ${t.rejected} missing ${t.missing}`
    : "";
  const session = live.session
    ? `session ${live.session.id} ${live.session.track_name || "(unnamed)"} ` +
      `laps ${live.session.lap_count} best ${formatLapTime(live.session.best_lap_time_ms ?? -1)}`
    : "no session yet";
  const lap = live.current_lap !== null ? `  lap ${live.current_lap}` : "";
  return `${link}${drops} | ${session}${lap} | ${url}`;
}
