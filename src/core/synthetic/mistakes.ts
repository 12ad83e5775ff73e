/**
 * Mistakes the synthetic driver can be told to make, at a chosen corner on
 * a chosen lap, by changing the speed profile of its drive path there (the
 * pedals then follow the profile, as everywhere). Each keeps the profile
 * within what the car can do: it only ever lowers speeds.
 *
 * @module
 */
import type { CarSpec } from "./car.ts";
import { type DrivePath, gripLeft } from "./driver.ts";

/**
 * A mistake at the corner whose slowest point lies nearest `atM` metres
 * into timed lap `lap` (within {@linkcode CORNER_SEARCH_M}):
 * - `brake_early`: braking begins `metres` before the clean braking point,
 *   as hard, and the corner's minimum speed is then held to the apex;
 * - `slow_apex`: `kmh` less at the slowest point, braking for it and
 *   accelerating from it within the car's limits;
 * - `lift`: the driver holds the slowest point's speed `metres` past it,
 *   off the throttle, then accelerates flat out (a lift on the straight out
 *   of the corner: back on the throttle `metres` later).
 */
export type Mistake =
  | { kind: "brake_early"; lap: number; atM: number; metres: number }
  | { kind: "slow_apex"; lap: number; atM: number; kmh: number }
  | { kind: "lift"; lap: number; atM: number; metres: number };

/** How far from `atM` the corner's slowest point is looked for, metres. */
export const CORNER_SEARCH_M = 80;

/**
 * Applies `mistakes` to `path`'s speed profile in place. Throws RangeError
 * for a lap the drive does not time, a size that is not positive, or no
 * slowing point near `atM`.
 */
export function applyMistakes(path: DrivePath, car: CarSpec, mistakes: readonly Mistake[]): void {
  for (const m of mistakes) {
    const laps = path.lineSigma.length - 1;
    if (!Number.isInteger(m.lap) || m.lap < 1 || m.lap > laps) {
      throw new RangeError(`mistake lap must be a timed lap from 1 to ${laps}, got ${m.lap}`);
    }
    const size = m.kind === "slow_apex" ? m.kmh : m.metres;
    if (!(size > 0)) throw new RangeError(`mistake size must be positive, got ${size}`);
    const start = path.lineSigma[m.lap - 1];
    const a = slowestNear(path, start + m.atM, start, path.lineSigma[m.lap]);
    if (m.kind === "brake_early") brakeEarly(path, a, m.metres);
    else if (m.kind === "slow_apex") slowApex(path, car, a, m.kmh / 3.6);
    else lift(path, car, a, m.metres);
  }
}

/** The station of lowest speed within {@linkcode CORNER_SEARCH_M} of `sigma`, inside [from, to). */
function slowestNear(path: DrivePath, sigma: number, from: number, to: number): number {
  let best = -1;
  for (let j = 0; j < path.count; j++) {
    const s = path.sigma[j];
    if (s < from || s >= to || Math.abs(s - sigma) > CORNER_SEARCH_M) continue;
    if (best < 0 || path.speed[j] < path.speed[best]) best = j;
  }
  if (best <= 0 || best >= path.count - 1) {
    throw new RangeError(`no corner within ${CORNER_SEARCH_M} m of the mistake's place`);
  }
  return best;
}

/** Deceleration between stations `j` and `j + 1` of the profile, m/s^2 (negative: speeding up). */
function decel(path: DrivePath, j: number): number {
  const v = path.speed;
  return (v[j] ** 2 - v[j + 1] ** 2) / (2 * (path.sigma[j + 1] - path.sigma[j]));
}

/**
 * The station where braking for the slowest point `a` begins, and how hard
 * it brakes: the start of the run of falling (or held) speed that ends at
 * `a`, less any stretch at its start slowing at under half the run's
 * hardest braking.
 */
function brakingStart(path: DrivePath, a: number): { b: number; dec: number } {
  let b = a;
  // Stretches held at one speed (a flat-out straight, a long arc) belong to the run.
  while (b > 0 && path.speed[b - 1] >= path.speed[b] - 1e-6) b--;
  let dec = 0;
  for (let j = b; j < a; j++) dec = Math.max(dec, decel(path, j));
  while (b < a && decel(path, b) < dec / 2) b++;
  return { b, dec };
}

/** Station nearest distance `sigma`. */
function stationAt(path: DrivePath, sigma: number): number {
  let j = 0;
  while (j < path.count - 1 && path.sigma[j + 1] <= sigma) j++;
  return j + 1 < path.count && path.sigma[j + 1] - sigma < sigma - path.sigma[j] ? j + 1 : j;
}

function brakeEarly(path: DrivePath, a: number, metres: number): void {
  const v = path.speed;
  const s = path.sigma;
  const { b, dec } = brakingStart(path, a);
  if (!(dec > 0) || b >= a) {
    throw new RangeError("the corner has no braking zone to brake early for");
  }
  const e = stationAt(path, s[b] - metres);
  const ve = v[e];
  const vmin = v[a];
  for (let j = e; j <= a; j++) {
    v[j] = Math.min(v[j], Math.sqrt(Math.max(vmin * vmin, ve * ve - 2 * dec * (s[j] - s[e]))));
  }
}

/**
 * Lowers the profile after station `from` to what the car reaches
 * accelerating flat out from its speed there (as the clean profile's
 * forward pass does), until that meets the profile.
 */
function accelerateFrom(path: DrivePath, car: CarSpec, from: number): void {
  const v = path.speed;
  for (let j = from; j < path.count - 1; j++) {
    const lat = v[j] * v[j] * path.curvature[j];
    const drive = Math.min(
      car.tractionAccel * gripLeft(lat, path.lateralLimit[j]),
      car.powerPerMass / v[j],
    );
    const resist = car.dragPerMass * v[j] * v[j] + car.corneringDrag * Math.abs(lat);
    const w = Math.sqrt(
      v[j] * v[j] + 2 * Math.max(0, drive - resist) * (path.sigma[j + 1] - path.sigma[j]),
    );
    if (w >= v[j + 1]) break;
    v[j + 1] = w;
  }
}

function slowApex(path: DrivePath, car: CarSpec, a: number, less: number): void {
  const v = path.speed;
  const s = path.sigma;
  v[a] = Math.max(1, v[a] - less);
  // Braking for it as the clean profile's backward pass does.
  for (let j = a - 1; j >= 0; j--) {
    const lat = v[j + 1] * v[j + 1] * path.curvature[j + 1];
    const dec = car.brakeDecel * gripLeft(lat, path.lateralLimit[j + 1]);
    const w = Math.sqrt(v[j + 1] ** 2 + 2 * dec * (s[j + 1] - s[j]));
    if (w >= v[j]) break;
    v[j] = w;
  }
  accelerateFrom(path, car, a);
}

function lift(path: DrivePath, car: CarSpec, a: number, metres: number): void {
  const v = path.speed;
  const end = stationAt(path, path.sigma[a] + metres);
  for (let j = a + 1; j <= end; j++) v[j] = Math.min(v[j], v[a]);
  accelerateFrom(path, car, end);
}
