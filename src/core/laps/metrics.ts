/**
 * Per-lap metrics derived from the samples alone, so an imported lap gets
 * the same numbers as a recorded one.
 *
 * @module
 */
import { AID, type LapSamples } from "./columns.ts";
import type { LapMetrics } from "./lap.ts";
import { offTrackCount } from "./surface_code.ts";

/**
 * Each tick's weight in time-weighted percentages: max(t[i] - t[i-1], 0), the
 * first tick taking the first interval's weight. With fewer than two ticks,
 * or when no time passes at all, every tick weighs 1. The result has t's length.
 */
export function timeWeights(t: readonly number[]): Float64Array {
  const n = t.length;
  const w = new Float64Array(n);
  let total = 0;
  for (let i = 1; i < n; i++) {
    const d = t[i] - t[i - 1];
    w[i] = d > 0 ? d : 0;
    total += w[i];
  }
  if (n >= 2) {
    w[0] = w[1];
    total += w[0];
  }
  // Dropped packets stretch t; a lap whose clock never moves still deserves
  // an answer, so it falls back to counting ticks.
  if (total <= 0) w.fill(1);
  return w;
}

/**
 * Computes {@linkcode LapMetrics} from a lap's samples and its fuel at the
 * start and end. Percentages are time-weighted and rounded to 1 dp; aid usage
 * is 0 unless the `aids` column has one value per tick, and so are tyre spin
 * and the lowest ride height unless `tire_slip` and `body_height` do; the off-track count
 * is -1 (and clean_lap null) unless the `surface` column has one value per
 * tick and at least one non-zero code. An empty lap gives zeros throughout.
 */
export function computeMetrics(
  samples: LapSamples,
  fuelStart: number,
  fuelEnd: number,
): LapMetrics {
  const n = samples.t.length;
  const w = timeWeights(samples.t);
  let total = 0;
  for (let i = 0; i < n; i++) total += w[i];

  const pct = (hit: (i: number) => boolean): number => {
    if (n === 0) return 0;
    let sum = 0;
    for (let i = 0; i < n; i++) if (hit(i)) sum += w[i];
    return round((100 * sum) / total, 1);
  };
  const { throttle, brake, coast, tire_slip } = samples;
  const aids = samples.aids?.length === n ? samples.aids : undefined;
  const surface = samples.surface?.length === n ? samples.surface : undefined;

  const offTrack = offTrackCount(surface);
  return {
    total_ticks: n,
    fuel_consumed: round(Math.max(0, fuelStart - fuelEnd), 3),
    full_throttle_pct: pct((i) => throttle[i] >= 98),
    full_brake_pct: pct((i) => brake[i] >= 98),
    coasting_pct: pct((i) => coast[i] > 0),
    tire_spin_pct: tire_slip?.length === n ? pct((i) => tire_slip[i] >= 1.1) : 0,
    max_speed: n === 0 ? 0 : extreme(samples.speed, Math.max),
    min_body_height: n === 0 || samples.body_height?.length !== n
      ? 0
      : extreme(samples.body_height, Math.min),
    tcs_active_pct: aids ? pct((i) => (aids[i] & AID.tcs) !== 0) : 0,
    asm_active_pct: aids ? pct((i) => (aids[i] & AID.asm) !== 0) : 0,
    off_track_count: offTrack,
    clean_lap: offTrack < 0 ? null : offTrack === 0,
  };
}

function extreme(values: readonly number[], pick: (a: number, b: number) => number): number {
  // A loop rather than spreading: a 120,000-tick lap would overflow the call stack.
  let best = values[0];
  for (let i = 1; i < values.length; i++) best = pick(best, values[i]);
  return best;
}

function round(value: number, dp: number): number {
  const f = 10 ** dp;
  return Math.round(value * f) / f;
}
