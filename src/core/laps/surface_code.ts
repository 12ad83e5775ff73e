/**
 * The `surface` sample channel: the four wheels' surface letters packed into
 * one number per tick, and the excursions ("off track") they reveal.
 *
 * A tick's code is FL | FR << 4 | RL << 8 | RR << 12, each nibble one of
 * {@linkcode SURFACE_CODE}. 0 means the packet carried no surface data.
 *
 * @module
 */
import { WHEEL_CODES, type WheelCode } from "./columns.ts";

/** Nibble value of each known surface letter; any other letter packs as 7. */
export const SURFACE_CODE: Readonly<Record<string, number>> = {
  T: 1, // tarmac
  C: 2, // kerb
  D: 3, // dirt
  G: 4, // grass
  S: 5, // sand
  s: 6, // snow
};

/** Nibble value of a letter outside {@linkcode SURFACE_CODE}; it counts as on-road. */
export const OTHER_SURFACE = 7;

/** Fewest wheels on loose ground for a tick to count as off track. */
export const OFF_TRACK_WHEELS = 3;

/** Fewest consecutive off-track ticks that make an excursion. */
export const OFF_TRACK_TICKS = 6;

/**
 * Packs four surface letters (FL FR RL RR) into a tick's code. Returns 0 for
 * null, undefined or fewer than four characters; characters past the fourth
 * are ignored. Unknown letters pack as {@linkcode OTHER_SURFACE}.
 */
export function packSurface(letters: string | null | undefined): number {
  if (letters == null || letters.length < 4) return 0;
  let code = 0;
  for (let w = 0; w < 4; w++) {
    code |= (SURFACE_CODE[letters[w]] ?? OTHER_SURFACE) << (4 * w);
  }
  return code;
}

/** The four nibbles of a tick's code, in FL, FR, RL, RR order. */
export function unpackSurface(code: number): [number, number, number, number] {
  return [code & 0xf, (code >> 4) & 0xf, (code >> 8) & 0xf, (code >> 12) & 0xf];
}

/** True for a loose surface nibble: dirt, grass, sand or snow (3..6). */
export function isLoose(nibble: number): boolean {
  return nibble >= 3 && nibble <= 6;
}

/** Bit w set (w = 0 FL .. 3 RR) when that wheel of a tick's code is on loose ground. */
export function looseMask(code: number): number {
  let mask = 0;
  for (let w = 0; w < 4; w++) {
    if (isLoose((code >> (4 * w)) & 0xf)) mask |= 1 << w;
  }
  return mask;
}

/** The wheel codes of a {@linkcode looseMask}, in FL, FR, RL, RR order. */
export function maskWheels(mask: number): WheelCode[] {
  return WHEEL_CODES.filter((_, w) => (mask & (1 << w)) !== 0);
}

/** One off-track excursion: ticks first..last (inclusive) of a lap. */
export interface Excursion {
  /** Index of the excursion's first tick. */
  first: number;
  /** Index of its last tick. */
  last: number;
  /** Every wheel that was on loose ground during it, as a {@linkcode looseMask}. */
  wheels: number;
  /** Most wheels loose at once (3 or 4). */
  maxLoose: number;
}

/**
 * Every excursion of a `surface` column: each maximal run of ticks with at
 * least {@linkcode OFF_TRACK_WHEELS} wheels on loose ground that lasts at least
 * {@linkcode OFF_TRACK_TICKS} ticks, in lap order. Ticks without surface data
 * (0) count as on-road.
 */
export function excursions(surface: readonly number[]): Excursion[] {
  const found: Excursion[] = [];
  let first = -1;
  let wheels = 0;
  let maxLoose = 0;
  const close = (end: number) => {
    if (first >= 0 && end - first >= OFF_TRACK_TICKS) {
      found.push({ first, last: end - 1, wheels, maxLoose });
    }
    first = -1;
    wheels = 0;
    maxLoose = 0;
  };
  for (let i = 0; i < surface.length; i++) {
    const mask = looseMask(surface[i]);
    const count = popcount4(mask);
    if (count >= OFF_TRACK_WHEELS) {
      if (first < 0) first = i;
      wheels |= mask;
      if (count > maxLoose) maxLoose = count;
    } else {
      close(i);
    }
  }
  close(surface.length);
  return found;
}

/**
 * The number of excursions in a `surface` column, or -1 when it says nothing:
 * the column is missing, empty or all 0 (no packet carried surface data).
 */
export function offTrackCount(surface: readonly number[] | undefined): number {
  if (surface === undefined || !surface.some((code) => code !== 0)) return -1;
  return excursions(surface).length;
}

function popcount4(mask: number): number {
  return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) + ((mask >> 3) & 1);
}
