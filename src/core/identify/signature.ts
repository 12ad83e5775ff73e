/**
 * Track signatures (SPEC.md 2.4): five numbers that describe where a lap was
 * driven, made from one completed lap when a driver names a circuit.
 *
 * @module
 */

/** The five numbers of a signature: lap length and world bounding box, metres. */
export interface SignatureShape {
  /** Lap distance integrated from speed. */
  length_m: number;
  min_x: number;
  max_x: number;
  min_z: number;
  max_z: number;
}

/**
 * What identification reads from a lap: time (s), speed (km/h) and world
 * position (m), parallel arrays as a lap's samples store them.
 */
export interface LapTrace {
  readonly t: ArrayLike<number>;
  readonly speed: ArrayLike<number>;
  readonly pos_x: ArrayLike<number>;
  readonly pos_z: ArrayLike<number>;
}

/** One 60 Hz tick, seconds: the time the first sample of a lap stands for. */
const TICK_S = 1 / 60;

/**
 * The distance a lap covered, metres: each sample's speed times the time
 * since the previous sample (the first stands for one 60 Hz tick), so a lap
 * with lost or thinned packets still integrates over the time that passed.
 * This is the lap recorder's own `dist` rule, recomputed from `t` and
 * `speed`, so an imported lap is measured the same way as a live one.
 * Non-finite values add nothing, and neither does time that runs backwards
 * (the clock only ever moves on from the latest time seen).
 */
export function lapLength(trace: LapTrace): number {
  const n = Math.min(trace.t.length, trace.speed.length);
  let length = 0;
  let prev = Number.NaN;
  for (let i = 0; i < n; i++) {
    const t = trace.t[i];
    if (!Number.isFinite(t)) continue;
    const dt = Number.isNaN(prev) ? TICK_S : t - prev;
    const v = trace.speed[i] / 3.6;
    if (dt > 0 && Number.isFinite(v) && v > 0) length += v * dt;
    if (Number.isNaN(prev) || t > prev) prev = t;
  }
  return length;
}

/**
 * The signature of a lap: its length from {@linkcode lapLength} and the
 * bounding box of its finite positions, each rounded to centimetres. Null
 * when the lap has no finite position (nothing to recognise it by).
 */
export function signatureOf(trace: LapTrace): SignatureShape | null {
  const n = Math.min(trace.pos_x.length, trace.pos_z.length);
  let minX = Infinity;
  let maxX = -Infinity;
  let minZ = Infinity;
  let maxZ = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = trace.pos_x[i];
    const z = trace.pos_z[i];
    if (!Number.isFinite(x) || !Number.isFinite(z)) continue;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  if (minX === Infinity) return null;
  return {
    length_m: cm(lapLength(trace)),
    min_x: cm(minX),
    max_x: cm(maxX),
    min_z: cm(minZ),
    max_z: cm(maxZ),
  };
}

function cm(value: number): number {
  return Math.round(value * 100) / 100 + 0;
}
