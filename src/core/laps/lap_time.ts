/**
 * Lap time text.
 *
 * @module
 */

/** Formats milliseconds as M:SS.mmm (61500 -> "1:01.500"); negative values as "-:--.---". */
export function formatLapTime(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "-:--.---";
  const total = Math.round(ms);
  const minutes = Math.floor(total / 60000);
  const seconds = (total % 60000) / 1000;
  return `${minutes}:${seconds.toFixed(3).padStart(6, "0")}`;
}
