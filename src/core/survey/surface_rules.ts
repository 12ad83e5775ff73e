/**
 * What the four surface letters of format C say about the borders
 * (REFERENCE.md 2.4 and 2.5). Letters are FL FR RL RR; `T` is tarmac and
 * anything else (kerb included) is off the tarmac.
 *
 * @module
 */
import type { Side } from "../bundle/types.ts";

const TARMAC = 84; // "T"

function on(letters: string, wheel: number): boolean {
  return letters.charCodeAt(wheel) === TARMAC;
}

/**
 * The border a surface transition from `before` to `after` evidences: `L`
 * when only left wheels (FL, RL) changed and both right wheels read tarmac
 * before and after; `R` mirrored; null when wheels of both sides changed,
 * nothing changed, or the other side was not on tarmac (the transition then
 * cannot be pinned to one border). Both strings must hold 4 letters.
 */
export function transitionSide(before: string, after: string): Side | null {
  const left = before[0] !== after[0] || before[2] !== after[2];
  const right = before[1] !== after[1] || before[3] !== after[3];
  if (left === right) return null;
  if (left) {
    return on(before, 1) && on(before, 3) && on(after, 1) && on(after, 3) ? "L" : null;
  }
  return on(before, 0) && on(before, 2) && on(after, 0) && on(after, 2) ? "R" : null;
}

/**
 * The border being straddled: `L` while both left wheels are off the tarmac
 * and both right wheels on it, `R` mirrored, null otherwise.
 */
export function straddleSide(letters: string): Side | null {
  const fl = on(letters, 0);
  const fr = on(letters, 1);
  const rl = on(letters, 2);
  const rr = on(letters, 3);
  if (!fl && !rl && fr && rr) return "L";
  if (fl && rl && !fr && !rr) return "R";
  return null;
}

/**
 * Bit set of the wheels whose letter differs between `before` and `after`
 * (bit 0 FL, 1 FR, 2 RL, 3 RR).
 */
export function changedWheels(before: string, after: string): number {
  let bits = 0;
  for (let w = 0; w < 4; w++) if (before.charCodeAt(w) !== after.charCodeAt(w)) bits |= 1 << w;
  return bits;
}
