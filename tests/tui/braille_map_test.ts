import { strict as assert } from "node:assert";
import { compileBundle } from "../../src/core/geometry/compile.ts";
import { renderBrailleMap } from "../../src/tui/braille_map.ts";
import { generateCircuit } from "../../src/core/synthetic/circuit.ts";
import { borderCells, bundleOf, circuitCentre } from "../core/geometry/_cells.ts";

const OPTS = { compiledAt: "2026-11-21T12:00:00.000Z", appVersion: "0.1.0" };
const BLANK = "\u2800";
const circuit = generateCircuit(7);
const a = circuit.arrays;
/** The first 600 m of each border only: a partial survey. */
const partial = compileBundle(
  bundleOf(borderCells(circuitCentre(circuit), { keep: [{ from: 0, to: 600 }] })),
  OPTS,
);
const driven = [
  [...Array(Math.ceil(circuit.count / 5)).keys()].map((k) =>
    [a.x[5 * k], a.z[5 * k]] as [number, number]
  ),
];
const xs = driven[0].map((p) => p[0]);
const zs = driven[0].map((p) => p[1]);
/** Single points at the driven line's corners: the same frame, nothing drawn. */
const sameFrame = [[[Math.min(...xs), Math.min(...zs)]], [[Math.max(...xs), Math.max(...zs)]]] as [
  number,
  number,
][][];

Deno.test("a partial survey's braille map shows the driven line only where the borders are not", () => {
  const cols = 60;
  const rows = 20;
  const map = renderBrailleMap(partial, { cols, rows, driven });
  const base = renderBrailleMap(partial, { cols, rows, driven: sameFrame });
  assert.deepEqual(map.frame, base.frame);
  assert.deepEqual(base.faint, []);
  const cell = (lines: string[], i: number) => [...lines[Math.floor(i / cols)]][i % cols];
  const faint = new Set(map.faint);
  let borderCellsSeen = 0;
  for (let i = 0; i < cols * rows; i++) {
    if (faint.has(i)) {
      // A driven-line cell was empty of borders, and now holds dots.
      assert.equal(cell(base.lines, i), BLANK, `cell ${i}`);
      assert.notEqual(cell(map.lines, i), BLANK, `cell ${i}`);
    } else {
      // Every other cell is exactly what the borders drew: the driven line is beneath them.
      assert.equal(cell(map.lines, i), cell(base.lines, i), `cell ${i}`);
      if (cell(base.lines, i) !== BLANK) borderCellsSeen++;
    }
  }
  assert.ok(borderCellsSeen > 10, `${borderCellsSeen} border cells`);
  assert.ok(map.faint.length > 60, `${map.faint.length} driven cells`);
  // Halfway round, far from the 600 m surveyed, only the driven line shows where the car went.
  const half = Math.floor(circuit.count / 2);
  const scale = (2 * cols) / map.frame.spanX;
  const col = Math.floor(((a.x[half] - map.frame.minX) * scale) / 2);
  const row = Math.floor(((a.z[half] - map.frame.minZ) * scale) / 4);
  const around = [-1, 0, 1].flatMap((dr) => [-1, 0, 1].map((dc) => (row + dr) * cols + col + dc));
  assert.ok(around.some((i) => faint.has(i)), `driven line near cell ${row},${col}`);
  assert.ok(around.every((i) => cell(base.lines, i) === BLANK));
  // Without a driven line, that half of the lap is empty.
  const bare = renderBrailleMap(partial, { cols, rows });
  assert.deepEqual(bare.faint, []);
});

Deno.test("the car marker wins over the driven line and is never listed as faint", () => {
  const cols = 60;
  const rows = 20;
  const half = Math.floor(circuit.count / 2);
  const car = { x: a.x[half], z: a.z[half] };
  const map = renderBrailleMap(partial, { cols, rows, driven, car });
  assert.ok(map.car);
  const at = map.car.row * cols + map.car.col;
  assert.equal(map.faint.includes(at), false);
  assert.equal([...map.lines[map.car.row]][map.car.col], "●");
  const without = renderBrailleMap(partial, { cols, rows, driven });
  assert.ok(without.faint.includes(at), "the car's cell is on the driven line");
});
