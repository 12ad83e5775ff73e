/**
 * A lap as a recorder that cuts laps elsewhere than the line would store
 * it: the same samples, started at sample `k` and wrapped round, with time
 * and distance counted again from the new first sample (each sample keeps
 * its own step in time and distance, so a hole stays a jump).
 *
 * @module
 */
import type { LapSamples } from "../../../src/core/laps/columns.ts";

/** `samples` started at sample `k` (0 <= k < length) and wrapped round; the input is not changed. */
export function rotateLap(samples: LapSamples, k: number): LapSamples {
  const n = samples.t.length;
  const order = [...Array(n).keys()].map((i) => (i + k) % n);
  const steps = (v: readonly number[]) => order.map((i) => i === 0 ? v[0] : v[i] - v[i - 1]);
  const rise = (v: readonly number[]) => {
    let sum = 0;
    return steps(v).map((s) => (sum += s));
  };
  const out: Record<string, number[]> = {};
  for (const [name, column] of Object.entries(samples)) {
    if (Array.isArray(column)) out[name] = order.map((i) => column[i] as number);
  }
  return { ...out, t: rise(samples.t), dist: rise(samples.dist) } as LapSamples;
}
