import { strict as assert } from "node:assert";
import {
  alignedChannel,
  alignedTimes,
  alignTo,
  checkChannels,
  distanceGrid,
  scaleToLap,
} from "../../../src/core/analysis/distance_grid.ts";
import { timeAt, traceOf, valueAt } from "../../../src/core/analysis/lap_trace.ts";
import { BadRequest } from "../../../src/core/errors.ts";
import type { LapSamples } from "../../../src/core/laps/columns.ts";

/** A small lap with the given time and distance, other channels flat. */
function lap(t: number[], dist: number[], extra: Partial<LapSamples> = {}): LapSamples {
  const n = t.length;
  const flat = (v: number) => new Array(n).fill(v);
  return {
    t,
    dist,
    speed: flat(100),
    throttle: flat(100),
    brake: flat(0),
    coast: flat(0),
    tire_slip: flat(1),
    body_height: flat(80),
    pos_x: flat(0),
    pos_z: dist.slice(),
    ...extra,
  };
}

Deno.test("the grid runs from 0 by the step and always ends on the lap's length", () => {
  assert.deepEqual(Array.from(distanceGrid(10, 4)), [0, 4, 8, 10]);
  assert.deepEqual(Array.from(distanceGrid(12, 4)), [0, 4, 8, 12]);
  assert.equal(distanceGrid(1703.17, 1).length, 1705);
  assert.equal(distanceGrid(1703.17, 1)[1704], 1703.17);
});

Deno.test("a bad step is refused on path step", () => {
  for (const step of [0, -1, 0.05, NaN, Infinity]) {
    assert.throws(() => distanceGrid(1000, step), (e: unknown) => {
      assert.ok(e instanceof BadRequest);
      assert.equal(e.issues[0].path, "step");
      return true;
    });
  }
  assert.throws(() => distanceGrid(30_000, 0.1), BadRequest, "300,001 points is too many");
});

Deno.test("fractions of one lap map onto another, the end onto the end", () => {
  const grid = distanceGrid(1000, 250);
  assert.deepEqual(Array.from(scaleToLap(grid, 1000, 1010)), [0, 252.5, 505, 757.5, 1010]);
});

Deno.test("the start line is t = 0 at 0 m and the lap's end is its sample duration", () => {
  const tr = traceOf(lap([0.5, 1, 1.5, 2], [5, 10, 15, 20]));
  assert.equal(tr.length, 20);
  assert.equal(tr.duration, 2);
  assert.equal(timeAt(tr, 0), 0);
  assert.equal(timeAt(tr, 2.5), 0.25);
  assert.equal(timeAt(tr, 12.5), 1.25);
  assert.equal(timeAt(tr, 20), 2);
  assert.equal(timeAt(tr, 25), 2);
});

Deno.test("repeated distance is a pause: a distance is reached at its first time", () => {
  // The car stands still at 10 m from t = 1 to t = 3.
  const tr = traceOf(lap([0.5, 1, 2, 3, 3.5], [5, 10, 10, 10, 15]));
  assert.equal(timeAt(tr, 10), 1);
  assert.equal(timeAt(tr, 12.5), 3.25);
  assert.equal(tr.duration, 3.5);
});

Deno.test("distance that steps back is held at its highest, never read twice", () => {
  const tr = traceOf(lap([1, 2, 3, 4, 5], [10, 20, 15, 18, 30]));
  assert.deepEqual(Array.from(tr.dist), [0, 10, 20, 20, 20, 30]);
  assert.equal(timeAt(tr, 20), 2);
  assert.equal(timeAt(tr, 25), 4.5);
});

Deno.test("a jump in t where packets were lost is crossed in a straight line", () => {
  // Ten ticks lost between 1/60 s and 11/60 s: distance jumped with them.
  const t = [1 / 60, 2 / 60, 13 / 60, 14 / 60];
  const tr = traceOf(lap(t, [1, 2, 13, 14]));
  assert.ok(Math.abs(timeAt(tr, 7.5) - 7.5 / 60) < 1e-12);
  assert.equal(valueAt(tr, [100, 100, 160, 160], 7.5), 130);
});

Deno.test("non-finite values repeat the previous one", () => {
  const tr = traceOf(lap([1, NaN, 3], [10, Infinity, 30]));
  assert.deepEqual(Array.from(tr.t), [0, 1, 1, 3]);
  assert.deepEqual(Array.from(tr.dist), [0, 10, 10, 30]);
});

Deno.test("a lap without samples or distance is refused naming the lap", () => {
  assert.throws(() => traceOf(lap([1], [1]), "lap 7"), /lap 7: needs at least 2 samples/);
  assert.throws(() => traceOf(lap([1, 2], [0, 0]), "lap 8"), (e: unknown) => {
    assert.ok(e instanceof BadRequest);
    assert.equal(e.issues[0].path, "lap 8.samples.dist");
    return true;
  });
});

Deno.test("continuous channels blend by distance, held ones keep the sample at or before", () => {
  const samples = lap([1, 2, 3], [10, 20, 30], {
    speed: [100, 200, 300],
    gear: [2, 3, 4],
  });
  const tr = traceOf(samples);
  const grid = Float64Array.from([0, 5, 15, 20, 25, 30]);
  const a = alignTo(tr, grid, 30);
  assert.deepEqual(Array.from(alignedChannel(a, "speed")!), [100, 100, 150, 200, 250, 300]);
  assert.deepEqual(Array.from(alignedChannel(a, "gear")!), [2, 2, 2, 3, 3, 4]);
  assert.deepEqual(Array.from(alignedTimes(a)), [0, 0.5, 1.5, 2, 2.5, 3]);
  assert.equal(alignedChannel(a, "steer"), null);
});

Deno.test("channel names are checked: unknown ones and t/dist are refused, repeats dropped", () => {
  assert.deepEqual(checkChannels(["speed", "gear", "speed"]), ["speed", "gear"]);
  for (const bad of ["sped", "t", "dist"]) {
    assert.throws(() => checkChannels(["speed", bad]), (e: unknown) => {
      assert.ok(e instanceof BadRequest);
      assert.equal(e.issues[0].path, "channels[1]");
      assert.match(e.message, new RegExp(`"${bad}"`));
      return true;
    });
  }
});
