/**
 * The median time of a synchronous call, the figure the benches print
 * before their Deno.bench tables.
 *
 * @module
 */

/**
 * The median of `runs` timings of `fn`, ms, after `warmup` untimed calls
 * (warm-up lets the optimising compiler see the code, as in a running
 * server).
 */
export function medianMs(fn: () => void, runs: number, warmup: number): number {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}
