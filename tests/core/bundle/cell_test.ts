import { strict as assert } from "node:assert";
import fc from "fast-check";
import { cellKey, pointKey, roundHalfEven } from "../../../src/core/bundle/cell.ts";

Deno.test("banker's rounding: halves go to the even neighbour, as Python's round does", () => {
  assert.equal(roundHalfEven(0.5), 0);
  assert.equal(roundHalfEven(1.5), 2);
  assert.equal(roundHalfEven(2.5), 2);
  assert.equal(roundHalfEven(3.5), 4);
  assert.equal(roundHalfEven(-1.5), -2);
  assert.equal(roundHalfEven(-2.5), -2);
  assert.equal(roundHalfEven(2.4999999), 2);
  assert.equal(roundHalfEven(2.5000001), 3);
  assert.equal(roundHalfEven(-2.6), -3);
  assert.equal(roundHalfEven(9999999.5), 10000000);
  assert.equal(roundHalfEven(-10000000), -10000000);
});

Deno.test("-0.5 and -0 round to 0, never -0", () => {
  assert.ok(Object.is(roundHalfEven(-0.5), 0));
  assert.ok(Object.is(roundHalfEven(-0), 0));
  assert.ok(Object.is(roundHalfEven(-0.4), 0));
});

Deno.test("rounding differs from Math.round only on halves", () => {
  fc.assert(
    fc.property(fc.double({ min: -1e7, max: 1e7, noNaN: true }), (v) => {
      const r = roundHalfEven(v);
      assert.ok(Math.abs(r - v) <= 0.5);
      if (Math.abs(v - Math.floor(v) - 0.5) !== 0) assert.equal(r, Math.round(v) || 0);
      else assert.equal(r % 2, 0);
    }),
  );
});

Deno.test("cell keys: same rounded metre and side share a key, anything else does not", () => {
  assert.equal(cellKey(0.5, 0, "L"), cellKey(0, 0, "L"));
  assert.equal(cellKey(-0.5, 0.4, "L"), cellKey(0, 0, "L"));
  assert.equal(cellKey(1.5, 0, "L"), cellKey(2.5, 0, "L"));
  assert.notEqual(cellKey(0.5, 0, "L"), cellKey(1.5, 0, "L"));
  assert.notEqual(cellKey(0, 0, "L"), cellKey(0, 0, "R"));
  assert.notEqual(cellKey(1, 0, "L"), cellKey(0, 1, "L"));
  assert.notEqual(cellKey(1e7, -1e7, "R"), cellKey(-1e7, 1e7, "R"));
  assert.equal(pointKey(2.5, -0.5), pointKey(2, 0));
  assert.notEqual(pointKey(3.5, 0), pointKey(3, 0));
});

Deno.test("cell keys are exact and distinct over the whole coordinate range", () => {
  const grid = fc.integer({ min: -10_000_000, max: 10_000_000 });
  fc.assert(
    fc.property(grid, grid, grid, grid, fc.boolean(), (x1, z1, x2, z2, right) => {
      const side = right ? "R" : "L";
      assert.ok(Number.isSafeInteger(cellKey(x1, z1, side)));
      assert.equal(cellKey(x1, z1, side) === cellKey(x2, z2, side), x1 === x2 && z1 === z2);
    }),
  );
});
