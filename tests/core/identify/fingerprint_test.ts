import { strict as assert } from "node:assert";
import { buildFingerprint, cellOf, hitsBlock } from "../../../src/core/identify/fingerprint.ts";
import { generateCircuit } from "../../../src/core/synthetic/circuit.ts";
import { borderPoints } from "./_laps.ts";

Deno.test("cells are floor(coordinate / 20)", () => {
  assert.equal(cellOf(0), 0);
  assert.equal(cellOf(19.999), 0);
  assert.equal(cellOf(20), 1);
  assert.equal(cellOf(-0.001), -1);
  assert.equal(cellOf(-20), -1);
  assert.equal(cellOf(-20.001), -2);
});

Deno.test("a position hits when any cell of its 3x3 block is occupied, and only then", () => {
  const fp = buildFingerprint([{ x: 10, z: 10 }]);
  assert.equal(fp.cells, 1);
  assert.equal(fp.points, 1);
  // The occupied cell is (0, 0); blocks around cells -1..1 on each axis reach it.
  for (const [x, z] of [[10, 10], [-20, -20], [39.999, 39.999], [-20, 39.999], [39.999, -20]]) {
    assert.equal(hitsBlock(fp, x, z), true, `${x},${z}`);
  }
  for (const [x, z] of [[-20.001, 10], [40, 10], [10, -20.001], [10, 40], [1e6, 1e6]]) {
    assert.equal(hitsBlock(fp, x, z), false, `${x},${z}`);
  }
});

Deno.test("points in one cell count once; non-finite points are skipped; empty hits nothing", () => {
  const fp = buildFingerprint([
    { x: 1, z: 1 },
    { x: 19, z: 2 },
    { x: 5, z: 19.5 },
    { x: Number.NaN, z: 0 },
    { x: 45, z: 0 },
  ]);
  assert.equal(fp.cells, 2);
  assert.equal(fp.points, 4);
  const empty = buildFingerprint([]);
  assert.equal(empty.cells, 0);
  assert.equal(hitsBlock(empty, 0, 0), false);
});

Deno.test("a bundle spread too wide for a grid answers the same through a set", () => {
  const points = [{ x: 10, z: 10 }, { x: 5_000_000, z: -5_000_000 }];
  const fp = buildFingerprint(points);
  assert.equal(fp.grid, null);
  assert.ok(fp.near !== null);
  assert.equal(fp.cells, 2);
  assert.equal(hitsBlock(fp, 39.999, -20), true);
  assert.equal(hitsBlock(fp, 40, -20), false);
  assert.equal(hitsBlock(fp, 5_000_030, -5_000_010), true);
  assert.equal(hitsBlock(fp, 5_000_040, -5_000_010), false);
});

Deno.test("grid and set fingerprints agree on every position around a real circuit", () => {
  const points = borderPoints(generateCircuit(3));
  const grid = buildFingerprint(points);
  // One far point forces the set representation over the same cells.
  const wide = buildFingerprint([...points, { x: 9_000_000, z: 9_000_000 }]);
  assert.ok(grid.grid !== null && wide.grid === null);
  assert.equal(wide.cells, grid.cells + 1);
  let hits = 0;
  for (let x = -2000; x <= 2000; x += 7) {
    for (let z = -2000; z <= 2000; z += 7) {
      const a = hitsBlock(grid, x, z);
      assert.equal(a, hitsBlock(wide, x, z));
      if (a) hits++;
    }
  }
  assert.ok(hits > 1000);
});
