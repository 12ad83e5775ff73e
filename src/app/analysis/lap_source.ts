/**
 * Where a sectors or consistency question's laps come from: a circuit's
 * (`track`) or a session's (`session`), exactly one, in a car. The rule is
 * the service's; the HTTP query holds a request to it with
 * {@linkcode lapSourceProblem} before the service sees it, so a refusal
 * has one wording whichever face asked.
 *
 * @module
 */
import { BadRequest, type Issue } from "../../core/errors.ts";

/** The rule of a question's laps: where they come from. */
export const ONE_SOURCE = "exactly one of track and session";

/** Where a sectors or consistency question's laps come from. */
export interface LapSource {
  /** A circuit name: the laps of that circuit. */
  track?: string;
  /** A session id: the laps of that session, named or not. */
  session?: number;
  /** The car whose laps count. */
  car: number;
}

/**
 * The fault of a source naming both or neither of `track` and `session`,
 * on the field to fix (`session` when both, `track` when neither); null
 * when it names exactly one.
 */
export function lapSourceProblem(q: Omit<LapSource, "car">): Issue | null {
  if (q.track !== undefined && q.session !== undefined) {
    return { path: "session", message: `must not be given with track: give ${ONE_SOURCE}` };
  }
  if (q.track === undefined && q.session === undefined) {
    return { path: "track", message: `is required: give ${ONE_SOURCE}` };
  }
  return null;
}

/**
 * Returns when `q` names exactly one of `track` and `session`.
 *
 * @throws {BadRequest} with {@linkcode lapSourceProblem}'s issue otherwise.
 */
export function checkLapSource(q: Omit<LapSource, "car">): void {
  const problem = lapSourceProblem(q);
  if (problem) throw new BadRequest(`${problem.path} ${problem.message}`, [problem]);
}
