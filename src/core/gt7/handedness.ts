/**
 * Which side of the car is left in the GT7 world. Positions are (x, z) on
 * the ground with y up, and a car moving with velocity (vx, vz) has heading
 * h = atan2(vx, vz), so its unit forward vector is (sin h, cos h).
 *
 * The car's left is (fz, -fx). This is measured, not assumed: in the shared
 * captures, whenever the yaw rate (angular velocity y, which tracks dh/dt)
 * is positive the right front wheel turns faster than the left (the left side
 * is on the inside), lateral acceleration has the opposite sign, and kerb
 * letters appear under the left wheels. So a positive yaw rate is a left
 * turn. Note that this is the mirror image of the (unverified) right vector
 * `(fz, -fx)` used by the reference survey's contact points.
 *
 * @module
 */

/** Unit vector pointing to the left of the unit heading (fx, fz), as [x, z]. */
export function leftOf(fx: number, fz: number): [number, number] {
  return [fz, -fx];
}

/** Unit vector pointing to the right of the unit heading (fx, fz), as [x, z]. */
export function rightOf(fx: number, fz: number): [number, number] {
  return [-fz, fx];
}
