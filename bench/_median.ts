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

/**
 * The median of `runs` timings of the awaited `fn`, ms, after `warmup`
 * untimed calls: {@linkcode medianMs} for work that reads a store or a
 * socket.
 */
export async function medianMsAsync(
  fn: () => Promise<unknown>,
  runs: number,
  warmup: number,
): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}
