/**
 * Reference lines replayed as laps a driver with another recorder might
 * bring: a lateral offset that changes slowly along the lap, position
 * noise, a hole where packets were lost, another sample rate, and
 * positions sent again unchanged. Deterministic for a seed.
 *
 * @module
 */
import type { ReferenceLine } from "../../../src/core/catalog/reference_lines.ts";
import { replayLine } from "../../../src/core/identify/reference_replay.ts";
import type { LapSamples } from "../../../src/core/laps/columns.ts";
import { seededRandom } from "../../_random.ts";

/** How a replay is perturbed. */
export interface Perturbation {
  /** Largest lateral offset, metres (+ left of travel); it changes slowly along the lap. */
  offset_m: number;
  /** Metres over which the offset goes through one whole swing. */
  wavelength_m: number;
  /** Phase of the swing, radians. */
  phase: number;
  /** Uniform noise on each coordinate, +- metres. */
  noise_m: number;
  /** Metres of positions lost, and where along the lap (share of it) the hole starts. */
  hole_m: number;
  hole_at: number;
  seed: number;
  /** Drive the line backwards. */
  reverse: boolean;
  /** Samples a second the recorder kept (a divisor of 60); 60 when left out. */
  hz?: number;
  /** Every this many samples, the recorder repeats the previous position (time and distance go on). */
  repeat_every?: number;
}

/**
 * `line` replayed at 60 Hz with `p`'s perturbation, as lap samples (time,
 * speed-integrated distance, speed, positions; the other channels flat).
 * The hole leaves out every sample in its stretch of the lap (time and
 * distance jump across it, as a recorder that lost packets would store).
 */
export function perturbedLap(line: ReferenceLine, p: Perturbation): LapSamples {
  const drive = replayLine(line, { reverse: p.reverse });
  const n = drive.t.length;
  const random = seededRandom(p.seed);
  const s = new Float64Array(n);
  for (let i = 1; i < n; i++) {
    s[i] = s[i - 1] +
      Math.hypot(drive.pos_x[i] - drive.pos_x[i - 1], drive.pos_z[i] - drive.pos_z[i - 1]);
  }
  const total = s[n - 1];
  const holeFrom = p.hole_at * total;
  const out = {
    t: [] as number[],
    dist: [] as number[],
    speed: [] as number[],
    throttle: [] as number[],
    brake: [] as number[],
    coast: [] as number[],
    tire_slip: [] as number[],
    body_height: [] as number[],
    pos_x: [] as number[],
    pos_z: [] as number[],
  };
  const every = 60 / (p.hz ?? 60);
  let d = 0;
  for (let i = 0; i < n; i++) {
    d += drive.speed[i] / 3.6 / 60;
    const noiseX = (random() * 2 - 1) * p.noise_m;
    const noiseZ = (random() * 2 - 1) * p.noise_m;
    if (s[i] >= holeFrom && s[i] < holeFrom + p.hole_m) continue;
    if (i % every !== 0) continue;
    const a = Math.max(0, i - 3);
    const b = Math.min(n - 1, i + 3);
    const dx = drive.pos_x[b] - drive.pos_x[a];
    const dz = drive.pos_z[b] - drive.pos_z[a];
    const len = Math.hypot(dx, dz) || 1;
    const off = p.offset_m * Math.sin((2 * Math.PI * s[i]) / p.wavelength_m + p.phase);
    // Left of travel in the GT7 world is (dz, -dx).
    out.t.push(drive.t[i] + 1 / 60);
    out.dist.push(d);
    out.speed.push(drive.speed[i]);
    out.throttle.push(100);
    out.brake.push(0);
    out.coast.push(0);
    out.tire_slip.push(1);
    out.body_height.push(80);
    const kept = out.pos_x.length;
    if (p.repeat_every && kept > 0 && kept % p.repeat_every === 0) {
      out.pos_x.push(out.pos_x[kept - 1]);
      out.pos_z.push(out.pos_z[kept - 1]);
      continue;
    }
    out.pos_x.push(drive.pos_x[i] + (off * dz) / len + noiseX);
    out.pos_z.push(drive.pos_z[i] - (off * dx) / len + noiseZ);
  }
  return out;
}
