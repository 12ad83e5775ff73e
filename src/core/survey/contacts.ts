/**
 * Where the four tyres touch the ground (REFERENCE.md 2.1), from the car's
 * position, its direction of travel, the wheelbase and the axle track width.
 * Left is the car's own left, `leftOf` the heading (see gt7/handedness.ts).
 *
 * @module
 */
import { leftOf } from "../gt7/handedness.ts";

/** Slowest speed (m/s) at which the heading is trusted enough to place wheels. */
export const MIN_CONTACT_SPEED = 3.0;

/**
 * The unit horizontal heading of velocity (vx, vz), or null when the car
 * does not move horizontally.
 */
export function headingOf(vx: number, vz: number): [number, number] | null {
  const norm = Math.hypot(vx, vz);
  if (!(norm > 0) || !Number.isFinite(norm)) return null;
  return [vx / norm, vz / norm];
}

/**
 * Writes the contact points of the four wheels into `out` as
 * [xFL, zFL, xFR, zFR, xRL, zRL, xRR, zRR]: fronts `wheelbase / 2` ahead of
 * (x, z) along the unit heading (fx, fz), rears as far behind, left wheels
 * `trackWidth / 2` to the left, right wheels as far to the right. Each
 * point is therefore hypot(wheelbase / 2, trackWidth / 2) from the car.
 * Returns `out`.
 */
export function wheelContacts(
  x: number,
  z: number,
  fx: number,
  fz: number,
  wheelbase: number,
  trackWidth: number,
  out: Float64Array = new Float64Array(8),
): Float64Array {
  const [lx, lz] = leftOf(fx, fz);
  const ax = fx * wheelbase / 2;
  const az = fz * wheelbase / 2;
  const sx = lx * trackWidth / 2;
  const sz = lz * trackWidth / 2;
  out[0] = x + ax + sx;
  out[1] = z + az + sz;
  out[2] = x + ax - sx;
  out[3] = z + az - sz;
  out[4] = x - ax + sx;
  out[5] = z - az + sz;
  out[6] = x - ax - sx;
  out[7] = z - az - sz;
  return out;
}
