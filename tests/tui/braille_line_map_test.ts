import { strict as assert } from "node:assert";
import { lineMapCell, renderLineMap } from "../../src/tui/braille_line_map.ts";

Deno.test("a driven line is drawn centred with its shape kept, and a point finds its cell", () => {
  // A 10 m square on 4 x 4 dots: one dot of margin, 0.2 dots a metre, corners on dots 1 and 3.
  const xs = [0, 10, 10, 0, 0];
  const zs = [0, 0, 10, 10, 0];
  const map = renderLineMap(xs, zs, 2, 1);
  assert.equal(map.scale, 0.2);
  // Left cell: dot column 1, rows 1..3; right cell: column 2 rows 1 and 3, column 3 rows 1..3.
  assert.deepEqual(map.lines, [String.fromCharCode(0x2800 + 0xb0, 0x2800 + 0xf2)]);
  assert.deepEqual(lineMapCell(map, 0, 0), { col: 0, row: 0 });
  assert.deepEqual(lineMapCell(map, 10, 10), { col: 1, row: 0 });
  assert.equal(lineMapCell(map, 100, 0), null);
  assert.equal(lineMapCell(map, NaN, 0), null);
});

Deno.test("a wide line fills the width and is centred in height; no points draw blank cells", () => {
  const map = renderLineMap([0, 100], [0, 0], 3, 2);
  assert.equal(map.lines.length, 2);
  for (const l of map.lines) assert.equal([...l].length, 3);
  // 6 x 8 dots: the line runs from dot 1 to dot 5 on the middle dot row.
  assert.equal(map.scale, 0.04);
  assert.deepEqual(lineMapCell(map, 0, 0), { col: 0, row: 1 });
  assert.deepEqual(lineMapCell(map, 100, 0), { col: 2, row: 1 });
  const empty = renderLineMap([NaN], [1], 2, 2);
  assert.deepEqual(empty.lines, ["\u2800\u2800", "\u2800\u2800"]);
});
