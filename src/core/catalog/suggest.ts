/**
 * Suggesting the official configuration of a surveyed circuit from its name
 * and measured lap length (REFERENCE.md 5.8). A suggestion is only ever
 * shown to a human, who confirms it; nothing here sets a bundle's official
 * match.
 *
 * @module
 */
import { CONFIGURATIONS, type OfficialConfiguration } from "./tracks.ts";

/** Least score a suggestion needs. */
export const MIN_SCORE = 0.55;
/** A length within this share of the official one adds {@linkcode LENGTH_BONUS}. */
export const CLOSE_LENGTH = 0.04;
/** Added to the name score for a close length. */
export const LENGTH_BONUS = 0.15;
/** A length further off than this share subtracts {@linkcode LENGTH_PENALTY}. */
export const FAR_LENGTH = 0.15;
/** Subtracted from the name score for a far length. */
export const LENGTH_PENALTY = 0.4;

/** A suggested configuration with how sure the suggestion is and why. */
export interface OfficialSuggestion extends OfficialConfiguration {
  /** min(score, 1), to 2 decimals. */
  confidence: number;
  /** The reasoning, in words. */
  why: string;
}

/** The lowercase letter and digit runs of `name`. */
export function nameTokens(name: string): string[] {
  return name.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t !== "");
}

/**
 * How alike two names are, 0..1: 1 for the same tokens, otherwise the F1
 * score of their token sets (2 x shared / (|a| + |b|)).
 */
export function nameScore(a: string, b: string): number {
  const ta = new Set(nameTokens(a));
  const tb = new Set(nameTokens(b));
  if (ta.size === 0 || tb.size === 0) return 0;
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return (2 * shared) / (ta.size + tb.size);
}

/** The names a configuration answers to: its circuit, its official name, circuit plus layout. */
function namesOf(c: OfficialConfiguration): string[] {
  const suffix = c.reverse ? " reverse" : "";
  return [c.track + suffix, c.official_name, `${c.track} ${c.layout}${suffix}`];
}

/**
 * The official configuration that best fits a circuit called `name` whose
 * lap measured `lengthM` metres (null when unknown): the best name score,
 * plus {@linkcode LENGTH_BONUS} within 4 % of the official length or minus
 * {@linkcode LENGTH_PENALTY} beyond 15 %. Ties go to the first in catalogue
 * order. Null when the best score is under {@linkcode MIN_SCORE}.
 */
export function suggestOfficial(
  name: string,
  lengthM: number | null,
  catalogue: readonly OfficialConfiguration[] = CONFIGURATIONS,
): OfficialSuggestion | null {
  let best: { c: OfficialConfiguration; score: number; names: number; diff: number | null } | null =
    null;
  for (const c of catalogue) {
    let names = 0;
    for (const n of namesOf(c)) names = Math.max(names, nameScore(name, n));
    if (names === 0) continue;
    let score = names;
    let diff: number | null = null;
    if (lengthM !== null && lengthM > 0 && c.length_m > 0) {
      diff = Math.abs(lengthM - c.length_m) / c.length_m;
      if (diff <= CLOSE_LENGTH) score += LENGTH_BONUS;
      else if (diff > FAR_LENGTH) score -= LENGTH_PENALTY;
    }
    if (best === null || score > best.score) best = { c, score, names, diff };
  }
  if (best === null || best.score < MIN_SCORE) return null;
  const { c, score, names, diff } = best;
  const length = diff === null
    ? "no measured lap length"
    : `measured ${Math.round(lengthM!)} m against the official ${c.length_m} m (${
      (diff * 100).toFixed(1)
    } % apart)`;
  return {
    ...c,
    confidence: Math.round(Math.min(score, 1) * 100) / 100,
    why: `name "${name}" scores ${names.toFixed(2)} against "${c.official_name}"; ${length}`,
  };
}
