import { strict as assert } from "node:assert";
import {
  closedLength,
  resampleClosed,
  scaleInPlace,
  smoothClosed,
} from "../../../src/core/synthetic/polyline.ts";
import { roundCorners } from "../../../src/core/synthetic/rounded_polygon.ts";

const square = () => ({
  x: Float64Array.from([0, 10, 10, 0]),
  z: Float64Array.from([0, 0, 10, 10]),
});

Deno.test("closedLength includes the closing segment", () => {
  assert.equal(closedLength(square()), 40);
});

Deno.test("resampleClosed spaces points evenly from the first point", () => {
  const out = resampleClosed(square(), 8);
  assert.deepEqual(Array.from(out.x), [0, 5, 10, 10, 10, 5, 0, 0]);
  assert.deepEqual(Array.from(out.z), [0, 0, 0, 5, 10, 10, 10, 5]);
});

Deno.test("scaleInPlace and smoothClosed", () => {
  const sq = square();
  scaleInPlace(sq, 2);
  assert.equal(closedLength(sq), 80);
  const sm = smoothClosed(sq, 1);
  assert.ok(Math.abs(sm.x[0] - 20 / 3) < 1e-12 && Math.abs(sm.z[0] - 20 / 3) < 1e-12);
});

Deno.test("roundCorners: a square with 3 m corners has straights plus one full circle", () => {
  const px = [0, 100, 100, 0];
  const pz = [0, 0, 100, 100];
  const line = roundCorners(px, pz, [3, 3, 3, 3], 0.5)!;
  const expected = 4 * (100 - 6) + 2 * Math.PI * 3;
  assert.ok(Math.abs(closedLength(line) - expected) < 0.05, `${closedLength(line)}`);
  // Every point lies inside the square and none is within the cut-off corner.
  for (let i = 0; i < line.x.length; i++) {
    assert.ok(line.x[i] >= -1e-9 && line.x[i] <= 100 + 1e-9);
    assert.ok(line.z[i] >= -1e-9 && line.z[i] <= 100 + 1e-9);
    assert.ok(Math.hypot(line.x[i], line.z[i]) > 3 * Math.SQRT2 - 3 - 1e-9);
  }
});

Deno.test("roundCorners: refuses radii that do not fit the edges", () => {
  assert.equal(roundCorners([0, 10, 10, 0], [0, 0, 10, 10], [6, 6, 6, 6], 1), null);
});
