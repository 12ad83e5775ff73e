/**
 * Which circuit a lap was driven on, by the precedence of SPEC.md section 1
 * and REFERENCE.md 5.3: stored signatures first, in the order given (the
 * first that passes all four gates and the direction test names the lap),
 * then the bundles. When neither is sure, the answer is null: a lap is never
 * given a guessed name, and a lap driven the other way round never takes the
 * name of a signature or bundle recorded forwards.
 *
 * @module
 */
import { type BundleCandidate, matchBundles } from "./bundle_match.ts";
import { forwardShare, type TravelDirection, travelDirection } from "./direction.ts";
import { checkGates, type Gate } from "./gates.ts";
import { lapLength, type LapTrace, signatureOf, type SignatureShape } from "./signature.ts";
import { pathDirection } from "./signature_path.ts";

/** A stored signature as the matcher sees it. */
export interface SignatureCandidate extends SignatureShape {
  readonly id: number;
  readonly name: string;
  /**
   * The driving line of the lap it was made from (signature_path.ts), which
   * carries its direction; absent for signatures stored before it was kept,
   * whose direction is unknown and which match either way round.
   */
  readonly path?: readonly number[];
}

/** How a lap was identified. */
export type Identification =
  | { by: "signature"; name: string; signature_id: number }
  | { by: "bundle"; name: string; slug: string; coverage: number; runner_up: number };

/** What was decided about one signature for one lap. */
export interface SignatureJudgement {
  /** True when the signature names the lap (the four gates and the direction test pass). */
  kept: boolean;
  /** The first gate that refused, or null when all four passed. */
  gate: Gate | null;
  /**
   * The direction test against the signature's path: "not recorded" for a
   * signature without one (it passes), null when a gate refused first.
   */
  direction: TravelDirection | "not recorded" | null;
  /** Share of the direction evidence travelled the signature's way (0 when not tested). */
  forward_share: number;
  /** Why it names the lap or not, in words. */
  reason: string;
}

/**
 * Judges signature `s` for the lap `trace` whose own signature is `shape`:
 * the four gates, then, when `s` keeps a path, the direction test. Only a
 * lap driven the way the signature's lap was ("forward") passes it: the
 * other way round, both ways or nowhere near the path is refused.
 */
export function judgeSignature(
  shape: SignatureShape,
  trace: LapTrace,
  s: SignatureCandidate,
): SignatureJudgement {
  const gates = checkGates(shape, s);
  if (!gates.match) {
    return {
      kept: false,
      gate: gates.gate,
      direction: null,
      forward_share: 0,
      reason: `gate ${gates.gate}: ${gates.reason}`,
    };
  }
  if (s.path === undefined || s.path.length < 4) {
    return {
      kept: true,
      gate: null,
      direction: "not recorded",
      forward_share: 0,
      reason: "passes the four gates; its direction was not recorded, so either way round matches",
    };
  }
  const tally = pathDirection(s.path, trace);
  const direction = travelDirection(tally);
  const share = Math.round(forwardShare(tally) * 10000) / 10000;
  const base = { gate: null, direction, forward_share: share };
  if (direction === "forward") {
    return { ...base, kept: true, reason: "passes the four gates, driven the same way round" };
  }
  const reason = direction === "reverse"
    ? "passes the four gates but is driven the other way round from the lap it was made from"
    : direction === "mixed"
    ? `passes the four gates but does not go round one way (${(share * 100).toFixed(0)} % its way)`
    : "passes the four gates but does not follow the line of the lap it was made from";
  return { ...base, kept: false, reason };
}

/**
 * Identifies the lap `trace`: the first of `signatures` that
 * {@linkcode judgeSignature} keeps, else the bundle that wins the bundle
 * match (driven its way round, or with no recorded direction), else null.
 * Bundles are consulted only when no signature matched.
 */
export function identifyTrace(
  trace: LapTrace,
  signatures: readonly SignatureCandidate[],
  bundles: readonly BundleCandidate[],
): Identification | null {
  const shape = signatureOf(trace);
  if (shape === null) return null;
  for (const s of signatures) {
    if (judgeSignature(shape, trace, s).kept) {
      return { by: "signature", name: s.name, signature_id: s.id };
    }
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
