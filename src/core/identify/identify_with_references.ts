/**
 * The whole precedence of SPEC.md section 1 with the reference lines as the
 * third kind of knowledge: the user's signatures first (a name the user gave
 * always wins), then the surveyed bundles, then the reference lines the
 * project ships. One call for the application's lap hook and for naming
 * sessions after the fact.
 *
 * @module
 */
import type { BundleCandidate } from "./bundle_match.ts";
import { type Identification, identifyTrace, type SignatureCandidate } from "./identify.ts";
import { defaultReferenceIndex, type ReferenceIndex } from "./reference_index.ts";
import {
  matchReferenceLines,
  type ReferenceMatch,
  type ReferenceVerdict,
} from "./reference_match.ts";
import type { LapTrace } from "./signature.ts";

/** A lap named from the reference lines. */
export interface ReferenceIdentification {
  by: "reference";
  /** The session's name: the configuration's official name, or the circuit's for twins. */
  name: string;
  /** The configuration, or null when twins (listed in official_ids) cannot be told apart. */
  official_id: string | null;
  official_ids: string[];
  direction: "forward" | "reverse";
}

/** How a lap was identified, by any of the three kinds of knowledge. */
export type AnyIdentification = Identification | ReferenceIdentification;

/** The answer of {@linkcode identifyWithReferences}. */
export interface IdentifyOutcome {
  /** The name and what gave it, or null when nothing is sure. */
  identification: AnyIdentification | null;
  /** The reference lines' verdict when they were consulted (nothing else named the lap), else null. */
  reference: ReferenceVerdict | null;
}

/**
 * Identifies `trace`: the first of `signatures` whose gates it passes, else
 * the bundle that wins the bundle match, else the reference line match of
 * `index` (by default every line the project ships). Exactly what
 * {@linkcode identifyTrace} answers whenever that is not null; the
 * reference lines are consulted only after it.
 */
export function identifyWithReferences(
  trace: LapTrace,
  signatures: readonly SignatureCandidate[],
  bundles: readonly BundleCandidate[],
  index: ReferenceIndex = defaultReferenceIndex(),
): IdentifyOutcome {
  const known = identifyTrace(trace, signatures, bundles);
  if (known !== null) return { identification: known, reference: null };
  const verdict = matchReferenceLines(trace, index);
  return {
    identification: verdict.match === null ? null : referenceIdentification(verdict.match),
    reference: verdict,
  };
}

/** The identification a reference-line match gives. */
export function referenceIdentification(m: ReferenceMatch): ReferenceIdentification {
  return {
    by: "reference",
    name: m.name,
    official_id: m.configuration?.official_id ?? null,
    official_ids: m.configurations.map((c) => c.official_id),
    direction: m.direction,
  };
}
