/**
 * Suggestions for the name prompt: official configurations from the
 * catalogue whose names match what the driver typed, closest to the lap's
 * measured length first. Pure.
 *
 * @module
 */
import { CONFIGURATIONS, type OfficialConfiguration } from "../core/catalog/tracks.ts";
import { FAR_LENGTH, nameTokens } from "../core/catalog/suggest.ts";

/** One suggested name. */
export interface TrackSuggestion {
  /** The name offered: the configuration's official name. */
  name: string;
  /** Official lap length, metres. */
  length_m: number;
  /** Share the measured lap is off the official length (0.02 = 2 %), or null when unknown. */
  off: number | null;
}

/** Words a configuration can be found by: its circuit, layout and official name. */
function wordsOf(c: OfficialConfiguration): string[] {
  return nameTokens(`${c.track} ${c.layout} ${c.official_name}${c.reverse ? " reverse" : ""}`);
}

const WORDS = new Map(CONFIGURATIONS.map((c) => [c, wordsOf(c)]));

/**
 * Up to `limit` configurations for a name being typed. Every typed word must
 * start a word of the configuration (case-insensitive). With nothing typed,
 * only configurations within 15 % of `lengthM` are offered (none without a
 * length). Ordered by how far the official length is from `lengthM`, then
 * catalogue order.
 */
export function trackSuggestions(
  typed: string,
  lengthM: number | null,
  limit: number,
  catalogue: readonly OfficialConfiguration[] = CONFIGURATIONS,
): TrackSuggestion[] {
  const wanted = nameTokens(typed);
  const known = lengthM !== null && lengthM > 0;
  if (wanted.length === 0 && !known) return [];
  const found: { c: OfficialConfiguration; off: number | null; at: number }[] = [];
  catalogue.forEach((c, at) => {
    const words = WORDS.get(c) ?? wordsOf(c);
    if (!wanted.every((w) => words.some((v) => v.startsWith(w)))) return;
    const off = known ? Math.abs(lengthM - c.length_m) / c.length_m : null;
    if (wanted.length === 0 && (off === null || off > FAR_LENGTH)) return;
    found.push({ c, off, at });
  });
  found.sort((a, b) => (a.off ?? 0) - (b.off ?? 0) || a.at - b.at);
  return found.slice(0, Math.max(0, limit)).map(({ c, off }) => ({
    name: c.official_name,
    length_m: c.length_m,
    off,
  }));
}
