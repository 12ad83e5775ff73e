/**
 * The road rule of the gap while naming hesitates (road_candidates.ts), on
 * two synthetic layouts that share their first kilometre: A runs on
 * straight, B turns off, loops 300 m away and comes back onto A's line.
 * A car drives B, moved 10-20 m, with noise, at 60/30/20/15 Hz: the gap
 * runs against A (the faster lap) on the shared road, and never once B has
 * left it, even where B comes back onto A's line.
 */
import { strict as assert } from "node:assert";
import fc from "fast-check";
import type { LiveReference } from "../../src/app/live/live_reference.ts";
import { RoadCandidates } from "../../src/app/live/road_candidates.ts";

/** Points every metre along straight legs from (0, 0) through `corners`. */
function polyline(corners: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [[0, 0]];
  let [x, z] = [0, 0];
  for (const [cx, cz] of corners) {
    const len = Math.hypot(cx - x, cz - z);
    for (let m = 1; m <= len; m++) out.push([x + (cx - x) * m / len, z + (cz - z) * m / len]);
    [x, z] = [cx, cz];
  }
  return out;
}

/** A lap along `points` at `speed` m/s, 60 samples a second. */
function lap(key: string, points: [number, number][], speed: number): LiveReference {
  const perSample = speed / 60;
  const t: number[] = [];
  const x: number[] = [];
  const z: number[] = [];
  const dist: number[] = [];
  for (let i = 0; i * perSample < points.length - 1; i++) {
    const at = i * perSample;
    const [px, pz] = points[Math.floor(at)];
    t.push(i / 60);
    x.push(px);
    z.push(pz);
    dist.push(at);
  }
  return {
    key,
    lapId: null,
    timeMs: t.at(-1)! * 1000,
    circuit: key,
    label: key,
    driver: null,
    path: { t, x, z },
    dist,
    bounds: null,
    brakes: [],
    length: dist.at(-1)!,
  };
}

const A = polyline([[3000, 0]]);
const B = polyline([[1000, 0], [1000, 300], [1600, 300], [1600, 0], [3000, 0]]);
/** Where B has left A's road by 40 m (the gap's own reach), metres along B. */
const SPLIT_M = 1040;

Deno.test("the gap runs against the faster layout on the shared road, never after it turned off", () => {
  const a = lap("a", A, 60);
  const b = lap("b", B, 50);
  fc.assert(
    fc.property(
      fc.double({ min: 10, max: 20, noNaN: true }),
      fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
      fc.double({ min: 0, max: 2, noNaN: true }),
      fc.constantFrom(1, 2, 3, 4),
      fc.integer(),
      (offset, angle, noise, every, seed) => {
        let s = seed | 0;
        const rnd = () => ((s = (s * 1103515245 + 12345) | 0) >>> 0) / 2 ** 32;
        const roads = new RoadCandidates();
        const car = lap("car", B, 45);
        const n = car.path.t.length;
        let last = 0;
        for (let i = 0; i < n; i += every) {
          const x = car.path.x[i] + offset * Math.cos(angle) + (rnd() * 2 - 1) * noise;
          const z = car.path.z[i] + offset * Math.sin(angle) + (rnd() * 2 - 1) * noise;
          const m = car.dist[i];
          const gap = roads.measure([a, b], {
            x,
            z,
            clockMs: car.path.t[i] * 1000,
            distanceM: m,
            movedM: m - last,
          });
          last = m;
          if (m > 50 && m < 950) assert.equal(gap?.ref.key, "a", `at ${m} m`);
          if (m > SPLIT_M + 100) assert.notEqual(gap?.ref.key, "a", `at ${m} m`);
          // Back on A's line at 2 km, the car is on B's road all the same.
          if (m > SPLIT_M + 100) assert.equal(gap?.ref.key, "b", `at ${m} m`);
        }
      },
    ),
    { numRuns: 20 },
  );
});
