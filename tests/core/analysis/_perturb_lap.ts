/**
 * A recorded lap as another recorder, or another day's line, might bring
 * it: positions moved sideways by an offset that swings slowly along the
 * lap, noise on every position, a hole where packets were lost (every
 * channel missing over a stretch; time and distance jump across it), and a
 * lower sample rate. The pedals, speed and clock are the lap's own, so
 * what the driver did is unchanged. Deterministic for a seed.
 *
 * @module
 */
import type { LapSamples } from "../../../src/core/laps/columns.ts";
import { seededRandom } from "../../_random.ts";

/** How a lap is perturbed. */
export interface LapPerturbation {
  /** Largest sideways offset, metres (+ left of travel). */
  offset_m: number;
  /** Metres over which the offset goes through one whole swing, and the swing's phase (radians). */
  wavelength_m: number;
  phase: number;
  /** Uniform noise on each coordinate, +- metres. */
  noise_m: number;
  /** Metres of lap lost, and where (metres from the line) the hole starts. */
  hole_m: number;
  hole_at_m: number;
  /** Samples a second kept (a divisor of 60). */
  hz: number;
  seed: number;
}

/** `samples` perturbed by `p` (see the module); the input is not changed. */
export function perturbLap(samples: LapSamples, p: LapPerturbation): LapSamples {
  const n = samples.t.length;
  const random = seededRandom(p.seed);
  const every = 60 / p.hz;
  const keep: number[] = [];
  const x: number[] = [];
  const z: number[] = [];
  for (let i = 0; i < n; i++) {
    const noiseX = (random() * 2 - 1) * p.noise_m;
    const noiseZ = (random() * 2 - 1) * p.noise_m;
    const d = samples.dist[i];
    // The lap's last sample stays: the lap still reaches the line.
    if (i < n - 1 && (i % every !== 0 || (d >= p.hole_at_m && d < p.hole_at_m + p.hole_m))) {
      continue;
    }
    const a = Math.max(0, i - 3);
    const b = Math.min(n - 1, i + 3);
    const dx = samples.pos_x[b] - samples.pos_x[a];
    const dz = samples.pos_z[b] - samples.pos_z[a];
    const len = Math.hypot(dx, dz) || 1;
    const off = p.offset_m * Math.sin((2 * Math.PI * d) / p.wavelength_m + p.phase);
    // Left of travel in the GT7 world is (dz, -dx).
    keep.push(i);
    x.push(samples.pos_x[i] + (off * dz) / len + noiseX);
    z.push(samples.pos_z[i] - (off * dx) / len + noiseZ);
  }
  const out: Record<string, number[]> = {};
  for (const [name, column] of Object.entries(samples)) {
    if (Array.isArray(column)) out[name] = keep.map((i) => column[i] as number);
  }
  return { ...out, pos_x: x, pos_z: z } as LapSamples;
}
