import { strict as assert } from "node:assert";
import { consistency } from "../../../src/core/analysis/consistency.ts";
import { BadRequest } from "../../../src/core/errors.ts";
import { noFixtures } from "../../_fixtures.ts";
import { asLap, broadBeanLaps, driveLap, stadium } from "./_laps.ts";

const path = stadium(600, 80);

/** A lap at 150 km/h but `slow` km/h over [from, to). */
function lap(id: number, from = 0, to = 0, slow = 150) {
  return asLap(id, driveLap(path, { speed: (s) => (s >= from && s < to ? slow : 150) }));
}

Deno.test("the stretch where the laps differ is the first hotspot, named by its corner", () => {
  // The first bend runs from 600 m to 851 m; two laps lose time in it between 650 and 750 m.
  const laps = [lap(1), lap(2, 650, 750, 100), lap(3, 650, 750, 120), lap(4)];
  const c = consistency(laps, { n: 4 });
  assert.deepEqual(c.lap_ids, [1, 4, 3, 2]);
  assert.equal(c.median_lap_id, 4);
  assert.deepEqual(
    c.hotspots.map((h) => [h.start_m, h.end_m, h.corner?.name]),
    [[650, 700, "Turn 1"], [700, 750, "Turn 1"]],
  );
  for (const h of c.hotspots) assert.ok(h.time_spread_s > 0 && h.speed_spread_kmh > 0);
  // Speed differs only where the laps were slow.
  c.distance.forEach((d, k) => {
    if (d < 645 || d > 755) assert.equal(c.spread_kmh[k], 0, `at ${d} m`);
  });
  assert.equal(c.mean_kmh[c.distance.indexOf(700)], (150 * 2 + 100 + 120) / 4);
});

Deno.test("identical laps have no spread and no hotspot", () => {
  const c = consistency([lap(1), lap(2), lap(3)]);
  assert.equal(c.time_spread_s, 0);
  assert.ok(c.spread_kmh.every((s) => s === 0));
  assert.deepEqual(c.hotspots, []);
  assert.equal(c.median_lap_id, 2);
});

Deno.test("n is checked and laps are required", () => {
  for (const n of [1, 2.5, 101]) {
    assert.throws(() => consistency([lap(1), lap(2)], { n }), (e: unknown) => {
      assert.ok(e instanceof BadRequest);
      assert.equal(e.issues[0].path, "n");
      return true;
    });
  }
  assert.throws(
    () => consistency([]),
    (e: unknown) => e instanceof BadRequest && e.issues[0].path === "laps",
  );
});

Deno.test({
  name: "Broad Bean: the four laps' consistency",
  ignore: noFixtures,
  fn() {
    const laps = broadBeanLaps();
    const c = consistency(laps, { n: 5 });
    assert.deepEqual(c.lap_ids, [2, 4, 3, 1]);
    assert.deepEqual(c.lap_times_ms, [32559, 32651, 32679, 32722]);
    // Of the two middle laps, the faster.
    assert.equal(c.median_lap_id, 4);
    assert.equal(c.median_lap_ms, 32651);
    // Population standard deviation of 32.559, 32.651, 32.679, 32.722 s.
    assert.equal(c.time_spread_s, 0.06);
    // Lap 4 covered 1704.15 m: 341 points 5 m apart and the line.
    assert.equal(c.distance.length, 342);
    assert.equal(c.hotspots.length, 3);
    const best2 = consistency(laps, { n: 2 });
    assert.deepEqual(best2.lap_ids, [2, 4]);
    assert.equal(best2.median_lap_id, 2);
  },
});
