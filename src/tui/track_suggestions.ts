/**
 * Suggestions for the name prompt: official configurations the lap's shape
 * points to (its reference-line verdict: the lines that fit the whole lap,
 * then those it mostly drove on), and, once the driver types, every
 * configuration whose names match what was typed, the shape's first, then
 * the closest to the lap's measured length. The length alone never
 * suggests anything: many circuits share a length. Pure.
 *
 * @module
 */
import { CONFIGURATIONS, type OfficialConfiguration } from "../core/catalog/tracks.ts";
import { nameTokens } from "../core/catalog/suggest.ts";

/** What the prompt knows of the lap: its length and what its shape suggests. */
export interface LapShape {
  /** The lap's length, metres, or null when unknown. */
  length_m: number | null;
  /**
   * Configurations the lap's shape suggests, best first (the `suggestions`
   * of GET /api/laps/{id}/identify): "fits" when the reference line fits the
   * whole lap, "close" when the lap mostly drove on it.
   */
  suggestions: readonly { official_id: string; fit: "fits" | "close" }[];
}

/** One suggested name. */
export interface TrackSuggestion {
  /** The name offered: the configuration's official name. */
  name: string;
  /** Official lap length, metres. */
  length_m: number;
  /** Share the measured lap is off the official length (0.02 = 2 %), or null when unknown. */
  off: number | null;
  /** How the lap's shape relates to it, or null when it was only found by name. */
  fit: "fits" | "close" | null;
}

/** Words a configuration can be found by: its circuit, layout and official name. */
function wordsOf(c: OfficialConfiguration): string[] {
  return nameTokens(`${c.track} ${c.layout} ${c.official_name}${c.reverse ? " reverse" : ""}`);
}

const WORDS = new Map(CONFIGURATIONS.map((c) => [c, wordsOf(c)]));

/**
 * Up to `limit` configurations for a name being typed. With nothing typed,
 * the ones the lap's shape suggests, in its order (none without a shape).
 * Otherwise every configuration of which each typed word starts a word
 * (case-insensitive): those the shape suggests first, in its order, then
 * by how far the official length is from the lap's, then catalogue order.
 */
export function trackSuggestions(
  typed: string,
  shape: LapShape | null,
  limit: number,
  catalogue: readonly OfficialConfiguration[] = CONFIGURATIONS,
): TrackSuggestion[] {
  const wanted = nameTokens(typed);
  const lengthM = shape?.length_m ?? null;
  const known = lengthM !== null && lengthM > 0;
  const rank = new Map<string, number>();
  const fits = new Map<string, "fits" | "close">();
  shape?.suggestions.forEach((s, i) => {
    if (rank.has(s.official_id)) return;
    rank.set(s.official_id, i);
    fits.set(s.official_id, s.fit);
  });
  const found: { c: OfficialConfiguration; off: number | null; at: number; rank: number }[] = [];
  catalogue.forEach((c, at) => {
    const r = rank.get(c.official_id) ?? Infinity;
    if (wanted.length === 0 && r === Infinity) return;
    const words = WORDS.get(c) ?? wordsOf(c);
    if (!wanted.every((w) => words.some((v) => v.startsWith(w)))) return;
    const off = known ? Math.abs(lengthM - c.length_m) / c.length_m : null;
    found.push({ c, off, at, rank: r });
  });
  found.sort((a, b) =>
    (a.rank === b.rank ? 0 : a.rank < b.rank ? -1 : 1) || (a.off ?? 0) - (b.off ?? 0) ||
    a.at - b.at
  );
  return found.slice(0, Math.max(0, limit)).map(({ c, off }) => ({
    name: c.official_name,
    length_m: c.length_m,
    off,
    fit: fits.get(c.official_id) ?? null,
  }));
}
