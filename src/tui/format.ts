/**
 * Text for the dashboard: numbers as the driver reads them, fitted to a
 * column. Pure; no terminal codes.
 *
 * @module
 */
import { formatLapTime } from "../core/laps/lap_time.ts";

/** The lap time text of the whole app (M:SS.mmm), or `-:--.---` for null. */
export function lapTime(ms: number | null): string {
  return formatLapTime(ms ?? -1);
}

/** A running lap timer to the tenth (M:SS.t), or `-:--.-` for null. */
export function lapTimer(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return "-:--.-";
  const tenths = Math.floor(ms / 100);
  const minutes = Math.floor(tenths / 600);
  const seconds = (tenths % 600) / 10;
  return `${minutes}:${seconds.toFixed(1).padStart(4, "0")}`;
}

/** A signed gap in seconds to the hundredth (`+0.25`, `-1.20`), or `--` for null. */
export function delta(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return "--";
  const hundredths = Math.round(ms / 10);
  const sign = hundredths < 0 ? "-" : "+";
  return `${sign}${(Math.abs(hundredths) / 100).toFixed(2)}`;
}

/** The gear as the car shows it: R for 0, N for 15, else the number. */
export function gearText(gear: number): string {
  if (gear === 0) return "R";
  if (gear === 15) return "N";
  return String(gear);
}

/** A raw pedal byte 0..255 as a whole percentage 0..100. */
export function pedalPct(raw: number): number {
  return Math.round(Math.min(255, Math.max(0, raw)) / 255 * 100);
}

/** `text` cut or padded to exactly `width` characters; a cut ends with `…`. */
export function fit(text: string, width: number): string {
  if (width <= 0) return "";
  const chars = [...text];
  if (chars.length <= width) return text + " ".repeat(width - chars.length);
  return chars.slice(0, width - 1).join("") + "…";
}

/** `text` right-aligned in `width` characters (cut like {@linkcode fit} when too long). */
export function right(text: string, width: number): string {
  const n = [...text].length;
  return n >= width ? fit(text, width) : " ".repeat(width - n) + text;
}

/** A count with its noun, singular for 1 (`1 lap`, `3 laps`). */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** What a lap list needs to mark a lap. */
export interface LapMarkFacts {
  /** The lap holds the session best. */
  best: boolean;
  /** The lap may hold the best. */
  counts: boolean;
  /** Nothing beyond the filled short gaps was lost. */
  complete: boolean;
  /** Samples the lap lacks against its lap time. */
  missing: number;
}

/** The marker for an incomplete lap, which {@linkcode INCOMPLETE_LEGEND} explains. */
export const INCOMPLETE_MARK = "! incomplete";

/** The legend under a lap list that shows an incomplete lap. */
export const INCOMPLETE_LEGEND =
  "! incomplete: packets lost beyond short gaps; never a best or a reference";

/**
 * The text after a lap in a lap list: `  * best`, `  ! incomplete` (with
 * `, N missing` when samples are missing), `  (partial)` for a complete lap
 * the span guard left out, or "".
 */
export function lapMark(lap: LapMarkFacts): string {
  if (lap.best) return "  * best";
  if (!lap.complete) {
    return `  ${INCOMPLETE_MARK}${lap.missing > 0 ? `, ${lap.missing} missing` : ""}`;
  }
  return lap.counts ? "" : "  (partial)";
}

/** A sector split: seconds to the hundredth under a minute (`32.10`), else M:SS.ss; `--` for null. */
export function sectorTime(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return "--";
  const hundredths = Math.round(ms / 10);
  const minutes = Math.floor(hundredths / 6000);
  const seconds = (hundredths % 6000) / 100;
  return minutes > 0 ? `${minutes}:${seconds.toFixed(2).padStart(5, "0")}` : seconds.toFixed(2);
}
