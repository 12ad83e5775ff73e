/// <reference lib="dom" />
import { strict as assert } from "node:assert";
import fc from "fast-check";
import { nextCornerOf } from "../../src/web/live_map.js";

/** Corners of a 5.8 km lap (Suzuka-like apex distances), in lap order. */
const CORNERS = [350, 520, 760, 1_180, 1_950, 2_640, 3_100, 3_900, 4_700, 5_600].map((m, i) => ({
  n: i + 1,
  name: `Turn ${i + 1}`,
  apex_m: m,
  apex: { x: i * 100, z: -i * 50 },
}));
const at = (distance: number, corner: number | null = null) =>
  nextCornerOf(CORNERS, {
    distance_m: distance,
    next_brake: corner === null ? null : { corner },
  })?.n ?? null;

Deno.test("the next corner is the brake marker's, else the first apex ahead, else turn 1 again", () => {
  assert.equal(at(0), 1);
  assert.equal(at(350), 2);
  assert.equal(at(349.9), 1);
  assert.equal(at(5_599), 10);
  assert.equal(at(5_700), 1);
  // The marker, matched on the reference's line, wins over the car's own distance (which drifts).
  assert.equal(at(300, 3), 3);
  // A marker for a corner the map does not have: by distance.
  assert.equal(at(300, 42), 1);
  assert.equal(nextCornerOf([], { distance_m: 10, next_brake: { corner: 1 } }), null);
});

Deno.test("a distance off by noise or an offset of 10-20 m moves the next corner only near an apex", () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0, max: 5_800, noNaN: true }),
      fc.double({ min: -20, max: 20, noNaN: true }),
      (d, off) => {
        const near = CORNERS.some((c) => Math.abs(c.apex_m - d) <= Math.abs(off));
        if (!near) assert.equal(at(d + off), at(d));
        // Whatever the noise, the answer is one of the map's corners.
        assert.ok(CORNERS.some((c) => c.n === at(d + off)));
      },
    ),
  );
});
