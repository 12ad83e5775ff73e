/**
 * The axle track width measured while cornering (REFERENCE.md 2.2): on a
 * turning car the outer wheels roll faster than the inner ones by the yaw
 * rate times the track width.
 *
 * @module
 */
import type { Wheels } from "../gt7/frame.ts";
import { SampleMedian } from "./median.ts";

/** The gates and bounds of the cornering estimator. */
export const CORNERING = {
  /** Slowest speed, m/s. */
  minSpeed: 8,
  /** Smallest |yaw rate|, rad/s. */
  minYaw: 0.15,
  /** Largest brake byte (of 255). */
  maxBrake: 8,
  /** Largest relative difference between an axle's mean wheel speed and the car's speed. */
  maxSlip: 0.05,
  /** Plausible widths, metres. */
  minWidth: 0.8,
  maxWidth: 2.4,
  /** Samples needed before the median is used. */
  minSamples: 60,
  /** Samples kept. */
  maxSamples: 4000,
} as const;

/** Why a tick gave no width. */
export type CorneringReject = "slow" | "straight" | "braking" | "slip" | "locked_axle";

/**
 * The track width one tick shows, or why it shows none. Per axle, the
 * difference of the two wheels' surface speeds over |yaw rate|, scaled by
 * car speed over the axle's mean wheel speed (so an axle that spins or
 * drags evenly still measures right); the axle whose mean speed is nearest
 * the car's wins. An axle qualifies only when its mean speed is within 5 %
 * of the car's and its width lies in 0.8-2.4 m.
 */
export function corneringWidth(
  speed: number,
  yawRate: number,
  brake: number,
  wheelRps: Wheels,
  tyreRadius: Wheels,
): number | CorneringReject {
  if (!(speed >= CORNERING.minSpeed)) return "slow";
  const yaw = Math.abs(yawRate);
  if (!(yaw >= CORNERING.minYaw)) return "straight";
  if (brake > CORNERING.maxBrake) return "braking";
  let best = -1;
  let bestSlip = Infinity;
  let locked = false;
  for (let axle = 0; axle < 4; axle += 2) {
    const left = Math.abs(wheelRps[axle] * tyreRadius[axle]);
    const right = Math.abs(wheelRps[axle + 1] * tyreRadius[axle + 1]);
    const mean = (left + right) / 2;
    if (!(mean > 0)) {
      locked = true;
      continue;
    }
    const slip = Math.abs(mean - speed) / speed;
    if (slip > CORNERING.maxSlip) continue;
    const width = Math.abs(right - left) / yaw * (speed / mean);
    if (width < CORNERING.minWidth || width > CORNERING.maxWidth) continue;
    if (slip < bestSlip) {
      bestSlip = slip;
      best = width;
    }
  }
  if (best > 0) return best;
  return locked ? "locked_axle" : "slip";
}

/** The running cornering estimate: the median of up to 4,000 accepted ticks. */
export class CorneringEstimator {
  readonly #samples = new SampleMedian(CORNERING.maxSamples);

  /** Accepted ticks so far. */
  get samples(): number {
    return this.#samples.count;
  }

  /** Feeds one tick (as {@linkcode corneringWidth} takes it); returns what it gave (a width, or why none). */
  observe(...tick: Parameters<typeof corneringWidth>): number | CorneringReject {
    const result = corneringWidth(...tick);
    if (typeof result === "number") this.#samples.push(result);
    return result;
  }

  /** The median width, or null before 60 accepted ticks. */
  estimate(): number | null {
    return this.#samples.median(CORNERING.minSamples);
  }

  /** Forgets every sample (another car). */
  reset(): void {
    this.#samples.clear();
  }
}
