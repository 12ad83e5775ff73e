/**
 * A lap of an unnamed circuit detects its own corners from its positions
 * walked by their own distance: a recorder's jitter, repeated samples, a
 * glitch and a hole do not change them, so the same circuit driven twice
 * gives the same corners.
 */
import { strict as assert } from "node:assert";
import { lapCorners } from "../../../src/core/analysis/corners.ts";
import { traceOf } from "../../../src/core/analysis/lap_trace.ts";
import type { LapCorner } from "../../../src/core/analysis/types.ts";
import type { LapSamples } from "../../../src/core/laps/columns.ts";
import { noFixtures } from "../../_fixtures.ts";
import { seededRandom } from "../../_random.ts";
import { driveLap, steered, suzukaLap } from "./_laps.ts";

/**
 * `samples` as another recorder might store them: `noise` metres of noise
 * on every position, every fifth sample repeated, one position thrown 25 m off, and
 * the samples of 60 m of the lap lost from `holeAt` metres (on a straight:
 * a hole inside a bend hides its shape).
 */
function rough(samples: LapSamples, seed: number, holeAt: number, noise: number): LapSamples {
  const random = seededRandom(seed);
  const n = samples.t.length;
  const out: Record<string, number[]> = {};
  const columns = Object.keys(samples) as (keyof LapSamples)[];
  for (const c of columns) out[c] = [];
  const holeFrom = holeAt;
  for (let i = 0; i < n; i++) {
    if (samples.dist[i] >= holeFrom && samples.dist[i] < holeFrom + 60) continue;
    for (let copy = 0; copy < (i % 5 === 0 ? 2 : 1); copy++) {
      for (const c of columns) {
        let v = (samples[c] as ArrayLike<number>)[i];
        if (c === "pos_x" || c === "pos_z") v += (random() * 2 - 1) * noise;
        if (c === "pos_x" && i === Math.floor(n * 0.7)) v += 25;
        out[c].push(v);
      }
    }
  }
  return out as unknown as LapSamples;
}

function assertSameCorners(a: LapCorner[], b: LapCorner[], label: string): void {
  assert.deepEqual(
    b.map((c) => [c.n, c.direction]),
    a.map((c) => [c.n, c.direction]),
    label,
  );
  for (const [k, c] of a.entries()) {
    const d = Math.hypot(c.apex.x - b[k].apex.x, c.apex.z - b[k].apex.z);
    assert.ok(d < 15, `${label}: turn ${c.n} apexes ${d.toFixed(1)} m apart`);
  }
}

Deno.test("a drawn circuit driven cleanly and roughly (0.3 m noise) gives the same corners", () => {
  const path = steered([
    [300, 0],
    [120, 1 / 60],
    [200, 0],
    [80, -1 / 40],
    [60, 1 / 50],
    [400, 0],
    [150, 1 / 80],
    [300, 0],
  ]);
  const clean = driveLap(path, { speed: () => 120 });
  const mine = lapCorners(traceOf(clean));
  assert.equal(mine.source, "lap");
  assert.deepEqual(mine.corners.map((c) => c.direction), ["L", "R", "L", "L"]);
  for (const seed of [1, 2, 3]) {
    const other = lapCorners(traceOf(rough(clean, seed, 100, 0.3))).corners;
    assertSameCorners(mine.corners, other, `seed ${seed}`);
  }
});

Deno.test({
  name: "Suzuka's lap and a copy with repeats, a glitch and a hole detect the same 19 corners",
  ignore: noFixtures,
  fn() {
    const lap = suzukaLap();
    const mine = lapCorners(traceOf(lap.samples));
    assert.equal(mine.source, "lap");
    // Within one of the official 20 (the lap's own detection merges one pair the map keeps apart).
    assert.equal(mine.corners.length, 19);
    for (const seed of [1, 2]) {
      // No noise here: at Suzuka's speeds (a sample a metre or more apart), 0.3 m of noise splits
      // some long even bends in the lap's own detection (a named circuit uses its map instead).
      const other = lapCorners(traceOf(rough(lap.samples, seed, 100, 0)));
      assertSameCorners(mine.corners, other.corners, `seed ${seed}`);
    }
  },
});
