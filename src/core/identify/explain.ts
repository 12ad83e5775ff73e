/**
 * Explaining a verdict: every kind of knowledge judged against one lap, in
 * the order of SPEC.md section 1 (signatures, bundles, reference lines),
 * with each candidate's scores and why it was kept or dropped, the name the
 * precedence gives, and the configurations the lap's shape suggests to a
 * person. It always answers exactly what {@linkcode identifyWithReferences}
 * names; it only says more.
 *
 * @module
 */
import { configurationById, type OfficialConfiguration } from "../catalog/tracks.ts";
import { type BundleCandidate, matchBundles, MIN_COVERAGE } from "./bundle_match.ts";
import type { TravelDirection } from "./direction.ts";
import { type GateScores, gateScores } from "./gates.ts";
import { judgeSignature, type SignatureCandidate, type SignatureJudgement } from "./identify.ts";
import { type AnyIdentification, referenceIdentification } from "./identify_with_references.ts";
import { defaultReferenceIndex, type ReferenceIndex } from "./reference_index.ts";
import { matchReferenceLines, type ReferenceVerdict } from "./reference_match.ts";
import { lapLength, type LapTrace, signatureOf } from "./signature.ts";

/** A configuration the lap's shape points to. */
export interface ShapeSuggestion extends OfficialConfiguration {
  /** "fits": its reference line fits the whole lap; "close": the lap is mostly on it. */
  fit: "fits" | "close";
}

/** One signature judged against the lap. */
export interface SignatureExplanation extends SignatureJudgement {
  id: number;
  name: string;
  /** The gates' measures; null when the lap has no position to make a signature from. */
  scores: GateScores | null;
}

/** One bundle judged against the lap. */
export interface BundleExplanation {
  slug: string;
  track: string;
  /** Share of the tested positions near its borders, or null when the lap was refused first. */
  coverage: number | null;
  kept: boolean;
  reason: string;
}

/** The bundle stage. */
export interface BundleStage {
  /** Positions tested (0 when the lap was refused before testing). */
  tested: number;
  runner_up: number;
  /** The direction test over the best bundle (see matchBundles), or null when not reached. */
  direction: TravelDirection | null;
  forward_share: number;
  /** Why no bundle names the lap, or null when one does. */
  reason: string | null;
  candidates: BundleExplanation[];
}

/** The whole explanation. */
export interface IdentifyExplanation {
  /** What the precedence names the lap, or null: identifyWithReferences' answer. */
  identification: AnyIdentification | null;
  /** Why, in words. */
  reason: string;
  /**
   * Configurations the lap's shape suggests, best first: those whose line
   * fits the lap (both of an ambiguous pair, the twins of a circuit), then
   * those the lap mostly drove on. Empty when the lap is near no line.
   */
  suggestions: ShapeSuggestion[];
  /** The lap's length from its speed, metres (the signature's measure). */
  length_m: number;
  signatures: SignatureExplanation[];
  bundles: BundleStage;
  reference: ReferenceVerdict;
}

/** A line the lap ran near for at least this share of its metres is "close". */
export const CLOSE_NEAR_SHARE = 0.75;
/** Most suggestions offered. */
export const MAX_SUGGESTIONS = 8;

/**
 * Judges `trace` against every signature (in order), every bundle and every
 * reference line of `index`, and names it by the precedence: the first kept
 * signature, else the winning bundle, else the reference lines' match.
 */
export function explainIdentification(
  trace: LapTrace,
  signatures: readonly SignatureCandidate[],
  bundles: readonly BundleCandidate[],
  index: ReferenceIndex = defaultReferenceIndex(),
): IdentifyExplanation {
  const shape = signatureOf(trace);
  const sigs: SignatureExplanation[] = signatures.map((s) => {
    if (shape === null) {
      return {
        id: s.id,
        name: s.name,
        scores: null,
        kept: false,
        gate: 1,
        direction: null,
        forward_share: 0,
        reason: "the lap has no position to make a signature from",
      };
    }
    return {
      id: s.id,
      name: s.name,
      scores: gateScores(shape, s),
      ...judgeSignature(shape, trace, s),
    };
  });
  const length = lapLength(trace);
  const verdict = shape === null
    ? null
    : bundles.length === 0
    ? null
    : matchBundles(trace, length, bundles);
  const bundleStage = explainBundles(bundles, verdict);
  const reference = matchReferenceLines(trace, index);
  const suggestions = shapeSuggestions(reference);

  const bySignature = sigs.find((s) => s.kept);
  let identification: AnyIdentification | null = null;
  let reason: string;
  if (bySignature !== undefined) {
    identification = { by: "signature", name: bySignature.name, signature_id: bySignature.id };
    reason = `named by signature ${bySignature.id} "${bySignature.name}": ${bySignature.reason}`;
  } else if (verdict?.match) {
    const m = verdict.match;
    identification = {
      by: "bundle",
      name: m.track,
      slug: m.slug,
      coverage: m.coverage,
      runner_up: verdict.runner_up,
    };
    reason = `named by bundle ${m.slug}: ${pct(m.coverage)} of the lap on it, ` +
      `runner-up ${pct(verdict.runner_up)}`;
  } else if (reference.match !== null) {
    identification = referenceIdentification(reference.match);
    reason = `no signature or bundle names the lap; reference lines: ${reference.reason}`;
  } else {
    reason = `no signature or bundle names the lap; reference lines: ${reference.reason}`;
  }
  return {
    identification,
    reason,
    suggestions,
    length_m: Math.round(length * 10) / 10,
    signatures: sigs,
    bundles: bundleStage,
    reference,
  };
}

function explainBundles(
  bundles: readonly BundleCandidate[],
  verdict: ReturnType<typeof matchBundles> | null,
): BundleStage {
  if (verdict === null || verdict.scores.length === 0) {
    const why = bundles.length === 0
      ? "no bundle is stored"
      : verdict === null
      ? "the lap has no position"
      : verdict.reason ?? "no bundle";
    return {
      tested: 0,
      runner_up: 0,
      direction: null,
      forward_share: 0,
      reason: why,
      candidates: bundles.map((b) => ({
        slug: b.slug,
        track: b.track,
        coverage: null,
        kept: false,
        reason: why,
      })),
    };
  }
  const best = verdict.scores[0];
  return {
    tested: verdict.tested,
    runner_up: verdict.runner_up,
    direction: verdict.direction,
    forward_share: verdict.forward_share,
    reason: verdict.reason,
    candidates: verdict.scores.map((s, k) => {
      const kept = k === 0 && verdict.match !== null;
      let reason: string;
      if (kept) {
        reason = `names the lap: ${pct(s.coverage)} on it, runner-up ${pct(verdict.runner_up)}`;
      } else if (k === 0) reason = verdict.reason ?? "";
      else if (s.coverage < MIN_COVERAGE) {
        reason = `coverage ${pct(s.coverage)} is under ${pct(MIN_COVERAGE)}`;
      } else reason = `coverage ${pct(s.coverage)} is below ${best.track}'s ${pct(best.coverage)}`;
      return { slug: s.slug, track: s.track, coverage: s.coverage, kept, reason };
    }),
  };
}

/**
 * The configurations the reference verdict's shape points to, best first,
 * at most {@linkcode MAX_SUGGESTIONS}: what a match names (both twins of a
 * circuit), else every configuration a fitting line names (both of an
 * ambiguous pair); then what the lines the lap ran near for at least
 * {@linkcode CLOSE_NEAR_SHARE} of its metres name, closest fit first (the
 * way round driven, when known).
 */
export function shapeSuggestions(verdict: ReferenceVerdict): ShapeSuggestion[] {
  const out: ShapeSuggestion[] = [];
  const seen = new Set<string>();
  const add = (c: OfficialConfiguration | null, fit: ShapeSuggestion["fit"]) => {
    if (c === null || seen.has(c.official_id) || out.length >= MAX_SUGGESTIONS) return;
    seen.add(c.official_id);
    out.push({ ...c, fit });
  };
  const fitting = verdict.match?.configurations ?? verdict.suggestions;
  for (const c of fitting) add(c, "fits");
  for (const c of verdict.candidates) {
    if (c.fits || c.near_share < CLOSE_NEAR_SHARE) continue;
    const ids = c.names?.official_ids ?? [c.official_id];
    for (const id of ids) add(configurationById(id), "close");
  }
  return out;
}

function pct(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}
