import { strict as assert } from "node:assert";
import fc from "fast-check";
import { cellKey, roundHalfEven } from "../../../src/core/bundle/cell.ts";
import { CellIndex } from "../../../src/core/bundle/cell_index.ts";
import type { Side } from "../../../src/core/bundle/types.ts";

/** Python's round(), as the reference system keys cells: by floor and fraction. */
function pythonRound(value: number): number {
  const floor = Math.floor(value);
  const fraction = value - floor;
  const r = fraction > 0.5
    ? floor + 1
    : fraction < 0.5
    ? floor
    : floor % 2 === 0
    ? floor
    : floor + 1;
  return r === 0 ? 0 : r;
}

Deno.test("roundHalfEven agrees with Python's round on halves, near-halves and the limits", () => {
  const values = [
    0,
    -0,
    0.5,
    -0.5,
    1.5,
    -1.5,
    2.5,
    -2.5,
    0.49999999999999994,
    -0.49999999999999994,
    4503599627370495.5,
    -4503599627370495.5,
    2 ** 53,
    1e7,
    -1e7,
    1e7 - 0.5,
    -1e7 + 0.5,
    Number.MIN_VALUE,
    -Number.MIN_VALUE,
  ];
  for (const v of values) assert.ok(Object.is(roundHalfEven(v), pythonRound(v)), `${v}`);
  fc.assert(
    fc.property(
      fc.oneof(
        fc.double({ min: -1e7, max: 1e7, noNaN: true }),
        fc.integer({ min: -10_000_000, max: 10_000_000 }).map((i) => i + 0.5),
        fc.integer({ min: -10_000_000, max: 10_000_000 }).map((i) => i / 1000),
      ),
      (v) => Object.is(roundHalfEven(v), pythonRound(v)),
    ),
    { numRuns: 20_000 },
  );
  assert.ok(Object.is(roundHalfEven(-0.3), 0));
});

const cellArb = fc.record({
  x: fc.oneof(
    fc.double({ min: -1e7, max: 1e7, noNaN: true }),
    fc.integer({ min: -40, max: 40 }).map((i) => i / 2),
  ),
  z: fc.oneof(
    fc.double({ min: -1e7, max: 1e7, noNaN: true }),
    fc.integer({ min: -40, max: 40 }).map((i) => i / 2),
  ),
  side: fc.constantFrom<Side>("L", "R"),
});

Deno.test("the cell index finds exactly the cells cellKey says are one, through growth", () => {
  fc.assert(
    fc.property(fc.array(cellArb, { maxLength: 400 }), (cells) => {
      const index = new CellIndex(2);
      const byKey = new Map<number, number>();
      cells.forEach((c, i) => {
        const key = cellKey(c.x, c.z, c.side);
        const expected = byKey.get(key) ?? -1;
        assert.equal(index.get(c.x, c.z, c.side), expected);
        assert.equal(index.setIfAbsent(c.x, c.z, c.side, i), expected);
        if (expected < 0) byKey.set(key, i);
      });
      assert.equal(index.size, byKey.size);
      for (const c of cells) {
        assert.equal(index.get(c.x, c.z, c.side), byKey.get(cellKey(c.x, c.z, c.side)));
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("a dense 1 m grid of 100,000 cells: every one found, none confused", () => {
  const index = new CellIndex();
  let n = 0;
  for (let ix = 0; ix < 250; ix++) {
    for (let iz = -100; iz < 100; iz++) {
      for (const side of ["L", "R"] as const) {
        assert.equal(index.setIfAbsent(ix + 0.3, iz, side, n++), -1);
      }
    }
  }
  assert.equal(index.size, 100_000);
  assert.equal(index.get(249.6, -100.4, "R"), -1);
  assert.equal(index.get(248.6, -99.6, "R"), 249 * 400 + 1);
  assert.equal(index.setIfAbsent(0.5, 0, "L", 7), 200);
});
