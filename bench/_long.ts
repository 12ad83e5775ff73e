/**
 * Whether this `deno task bench` runs the long searches (BENCH_LONG=1), and
 * how a bench says what it left out without it. The default run stays under
 * five minutes on two cores; the long one confirms figures that need
 * minutes of traffic (docs/performance.md, "Running the benchmarks").
 *
 * @module
 */

/** True when BENCH_LONG=1: each bench runs its searches and full-length runs. */
export const LONG = Deno.env.get("BENCH_LONG") === "1";

/**
 * `long` under BENCH_LONG=1, `short` otherwise: the length of a timed run,
 * unless the bench's own knob (`knob`, an environment variable) sets it.
 */
export function benchLength(knob: string, short: number, long: number): number {
  const set = Deno.env.get(knob);
  return set === undefined ? (LONG ? long : short) : Number(set);
}

/** The line a bench prints for a part it runs only under BENCH_LONG=1. */
export function longOnly(what: string): string {
  return `${what}: not run (BENCH_LONG=1 npx --yes deno@2.9.6 task bench runs it)`;
}
