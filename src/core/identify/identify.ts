/**
 * Which circuit a lap was driven on, by the precedence of SPEC.md section 1
 * and REFERENCE.md 5.3: stored signatures first, in the order given (the
 * first that passes all four gates names the lap), then the bundles. When
 * neither is sure, the answer is null: a lap is never given a guessed name.
 *
 * @module
 */
import { type BundleCandidate, matchBundles } from "./bundle_match.ts";
import { signaturesMatch } from "./gates.ts";
import { lapLength, type LapTrace, signatureOf, type SignatureShape } from "./signature.ts";

/** A stored signature as the matcher sees it. */
export interface SignatureCandidate extends SignatureShape {
  readonly id: number;
  readonly name: string;
}

/** How a lap was identified. */
export type Identification =
  | { by: "signature"; name: string; signature_id: number }
  | { by: "bundle"; name: string; slug: string; coverage: number; runner_up: number };

/**
 * Identifies the lap `trace`: the first of `signatures` whose gates it
 * passes, else the bundle that wins the bundle match, else null. Bundles
 * are consulted only when no signature matched.
 */
export function identifyTrace(
  trace: LapTrace,
  signatures: readonly SignatureCandidate[],
  bundles: readonly BundleCandidate[],
): Identification | null {
  const shape = signatureOf(trace);
  if (shape === null) return null;
  for (const s of signatures) {
    if (signaturesMatch(shape, s)) return { by: "signature", name: s.name, signature_id: s.id };
  }
  if (bundles.length === 0) return null;
  const verdict = matchBundles(trace, lapLength(trace), bundles);
  if (verdict.match === null) return null;
  return {
    by: "bundle",
    name: verdict.match.track,
    slug: verdict.match.slug,
    coverage: verdict.match.coverage,
    runner_up: verdict.runner_up,
  };
}
