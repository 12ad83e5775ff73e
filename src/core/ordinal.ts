/**
 * English ordinals, for messages that point at the n-th item of a list a
 * driver typed ("the 2nd lap id"), where an index from 0 would be
 * developer wording.
 *
 * @module
 */

/**
 * `n` (a whole number from 0) as an English ordinal: 1st, 2nd, 3rd, 4th,
 * 11th, 12th, 13th, 21st, 101st, 111th.
 */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : SUFFIXES[n % 10] ?? "th";
  return `${n}${suffix}`;
}

const SUFFIXES: Readonly<Record<number, string>> = { 1: "st", 2: "nd", 3: "rd" };
