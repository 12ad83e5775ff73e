/**
 * The words a live frame says whose lap the gap runs against
 * (`delta.reference_label`): short enough for a phone beside the wheel.
 *
 * @module
 */
import { formatLapTime } from "../../core/laps/lap_time.ts";

/**
 * The driver's own best: "your best · Suzuka Circuit 2:05.431", or
 * "your best · this session 1:02.000" for a session that has no name yet.
 */
export function ownLabel(trackName: string | null, timeMs: number): string {
  return `your best · ${trackName || "this session"} ${formatLapTime(timeMs)}`;
}

/** A teammate's best from the hub: "Alice's best · Suzuka Circuit 2:04.900". */
export function teamLabel(driver: string, trackName: string, timeMs: number): string {
  return `${driver}'s best · ${trackName} ${formatLapTime(timeMs)}`;
}

/**
 * The best of layouts whose roads agree so far, named once each, the
 * track's name said once: "your best of Suzuka Circuit / East Course (same
 * road so far)" for `["Suzuka Circuit", "Suzuka Circuit East Course"]` of
 * track "Suzuka Circuit".
 */
export function sameRoadLabel(names: readonly string[], track: string): string {
  const parts = names.map((name, k) =>
    k > 0 && name.startsWith(`${track} `) ? name.slice(track.length + 1) : name
  );
  return `your best of ${parts.join(" / ")} (same road so far)`;
}
