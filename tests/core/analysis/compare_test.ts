import { strict as assert } from "node:assert";
import { compareLaps } from "../../../src/core/analysis/compare.ts";
import { BadRequest } from "../../../src/core/errors.ts";
import { noFixtures } from "../../_fixtures.ts";
import { asLap, broadBeanLaps, driveLap, stadium } from "./_laps.ts";

const path = stadium(400, 50);
const fast = asLap(1, driveLap(path, { speed: () => 180 }), 0);
const slow = asLap(2, driveLap(path, { speed: () => 150, offset: () => 3 }), 0);

Deno.test("the answer has the API's shape: a grid, the reference's id, each lap's delta and channels", () => {
  const cmp = compareLaps({ ref: fast, laps: [slow, fast], step: 10 });
  assert.deepEqual(Object.keys(cmp), ["distance", "ref", "start_m", "laps"]);
  assert.equal(cmp.ref, 1);
  assert.deepEqual(cmp.laps.map((l) => l.id), [2, 1]);
  const length = fast.samples.dist[fast.samples.dist.length - 1];
  assert.equal(cmp.distance[0], 0);
  assert.equal(cmp.distance[1], 10);
  assert.equal(cmp.distance[cmp.distance.length - 1], Math.round(length * 100) / 100);
  for (const lap of cmp.laps) {
    assert.deepEqual(Object.keys(lap), ["id", "time_ms", "lap_start_m", "delta_s", "channels"]);
    assert.deepEqual(Object.keys(lap.channels), ["speed", "throttle", "brake"]);
    assert.equal(lap.delta_s.length, cmp.distance.length);
    for (const c of Object.values(lap.channels)) assert.equal(c!.length, cmp.distance.length);
  }
  assert.ok(cmp.laps[0].channels.speed!.every((v) => v === 150));
  assert.ok(cmp.laps[1].delta_s.every((d) => d === 0));
  // 150 against 180 km/h: 20 % more time at every fraction of the lap.
  const d = cmp.laps[0].delta_s;
  const duration = (l: typeof fast) => l.samples.t[l.samples.t.length - 1];
  assert.equal(d[d.length - 1], Math.round((duration(slow) - duration(fast)) * 1000) / 1000);
  assert.ok(d.every((x, i) => i === 0 || x >= d[i - 1]));
});

Deno.test("channels are chosen by name; one the lap lacks is null, an unknown one refused", () => {
  const cmp = compareLaps({ ref: fast, laps: [fast], channels: ["gear", "steer"], step: 50 });
  assert.deepEqual(Object.keys(cmp.laps[0].channels), ["gear", "steer"]);
  assert.ok(cmp.laps[0].channels.gear!.every((g) => g === 4));
  assert.equal(cmp.laps[0].channels.steer, null);
  assert.throws(
    () => compareLaps({ ref: fast, laps: [fast], channels: ["speed", "warp"] }),
    (e: unknown) => e instanceof BadRequest && e.issues[0].path === "channels[1]",
  );
  assert.throws(
    () => compareLaps({ ref: fast, laps: [fast], step: 0 }),
    (e: unknown) => e instanceof BadRequest && e.issues[0].path === "step",
  );
});

Deno.test("the reference need not be among the laps compared", () => {
  const cmp = compareLaps({ ref: fast, laps: [slow] });
  assert.equal(cmp.ref, 1);
  assert.deepEqual(cmp.laps.map((l) => l.id), [2]);
  assert.equal(cmp.laps[0].delta_s[0], 0);
});

Deno.test({
  name: "Broad Bean: four laps on a 1 m grid along the fastest",
  ignore: noFixtures,
  fn() {
    const laps = broadBeanLaps();
    const cmp = compareLaps({ ref: laps[1], laps, channels: ["speed", "gear", "rpm"] });
    // The fastest lap covered 1703.17 m: 1704 whole metres and the line.
    assert.equal(cmp.distance.length, 1705);
    assert.equal(cmp.distance[1704], 1703.17);
    assert.deepEqual(cmp.laps.map((l) => [l.id, l.time_ms, l.delta_s[1704]]), [
      [1, 32722, 0.15],
      [2, 32559, 0],
      [3, 32679, 0.117],
      [4, 32651, 0.083],
    ]);
    for (const lap of cmp.laps) {
      assert.ok(lap.channels.gear!.every((g) => Number.isInteger(g)), "gear is held, not blended");
    }
  },
});
