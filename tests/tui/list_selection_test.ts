import { strict as assert } from "node:assert";
import { clamp, indexOfKey, movedKey } from "../../src/tui/list_selection.ts";

const rows = [{ id: 7 }, { id: 3 }, { id: 9 }];
const id = (r: { id: number }) => r.id;

Deno.test("indexOfKey finds the row by key, else the first row", () => {
  assert.equal(indexOfKey(rows, 9, id), 2);
  assert.equal(indexOfKey(rows, 3, id), 1);
  assert.equal(indexOfKey(rows, 4, id), 0);
  assert.equal(indexOfKey(rows, null, id), 0);
  assert.equal(indexOfKey(null, 9, id), 0);
});

Deno.test("movedKey steps from the selected row and stops at the ends", () => {
  assert.equal(movedKey(rows, 7, 1, id), 3);
  assert.equal(movedKey(rows, 3, 1, id), 9);
  assert.equal(movedKey(rows, 9, 1, id), 9);
  assert.equal(movedKey(rows, 3, -1, id), 7);
  assert.equal(movedKey(rows, 7, -1, id), 7);
  // A key no longer in the list moves from the first row.
  assert.equal(movedKey(rows, 4, 1, id), 3);
  assert.equal(movedKey(rows, null, -1, id), 7);
});

Deno.test("clamp holds a value to its range, and to lo when the range is empty", () => {
  assert.deepEqual([clamp(-2, 0, 5), clamp(3, 0, 5), clamp(8, 0, 5)], [0, 3, 5]);
  assert.equal(clamp(4, 0, -1), 0);
});
