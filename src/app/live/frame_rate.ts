/**
 * The rate a subscriber takes live frames at, `hz`: its bounds, its default
 * and its one check. The live frames ({@linkcode checkFrameRate} in
 * `LiveFrames.subscribe`), the stream's early check and the `GET /api/live`
 * query schema all read them from here, so the range is written once.
 *
 * @module
 */
import { BadRequest } from "../../core/errors.ts";

/** Lowest rate a subscriber may ask for, frames a second. */
export const MIN_HZ = 1;
/** Highest rate a subscriber may ask for: the console's own, 60 packets a second. */
export const MAX_HZ = 60;
/** Rate of the stream when the client does not say. */
export const DEFAULT_HZ = 10;

/** The rule a rate obeys, in the words a refusal gives. */
export const HZ_RULE = `must be a whole number from ${MIN_HZ} to ${MAX_HZ}`;

/**
 * Returns when `hz` is a whole number from {@linkcode MIN_HZ} to
 * {@linkcode MAX_HZ}.
 *
 * @throws {BadRequest} otherwise, with one issue on the field `hz` whose
 *   message is {@linkcode HZ_RULE}.
 */
export function checkFrameRate(hz: number): void {
  if (Number.isInteger(hz) && hz >= MIN_HZ && hz <= MAX_HZ) return;
  throw new BadRequest(`hz ${HZ_RULE}`, [{ path: "hz", message: HZ_RULE }]);
}
