import { strict as assert } from "node:assert";
import { listWindow, moreText, rowsAround } from "../../src/tui/list_window.ts";

const ids = (w: { rows: { at: number }[]; above: number; below: number }) => [
  w.above,
  w.rows.map((r) => r.at),
  w.below,
];

Deno.test("listWindow shows what fits around the selection and counts what is left out", () => {
  const eight = [..."abcdefgh"];
  // Everything fits: no hint.
  assert.deepEqual(ids(listWindow(eight, 3, 8)), [0, [0, 1, 2, 3, 4, 5, 6, 7], 0]);
  // Six lines for eight: five rows and the line saying three more follow.
  assert.deepEqual(ids(listWindow(eight, 0, 6)), [0, [0, 1, 2, 3, 4], 3]);
  // At the end: the hint is of the rows above.
  assert.deepEqual(ids(listWindow(eight, 7, 6)), [3, [3, 4, 5, 6, 7], 0]);
  // In the middle, rows are left out on both sides: a line for each.
  assert.deepEqual(ids(listWindow(eight, 4, 6)), [2, [2, 3, 4, 5], 2]);
  for (let sel = 0; sel < 8; sel++) {
    for (let size = 3; size <= 9; size++) {
      const w = listWindow(eight, sel, size);
      const lines = w.rows.length + (w.above > 0 ? 1 : 0) + (w.below > 0 ? 1 : 0);
      assert.ok(lines <= size, `${sel} ${size}`);
      assert.ok(w.rows.some((r) => r.at === sel), `${sel} ${size}: the selection is shown`);
      assert.equal(w.above + w.rows.length + w.below, 8);
    }
  }
  assert.deepEqual([moreText(3, false), moreText(2, true)], ["↓ 3 more", "↑ 2 more"]);
});

Deno.test("rowsAround centres the selection and keeps the window full at the ends", () => {
  const eight = [..."abcdefgh"];
  assert.deepEqual(ids(rowsAround(eight, 4, 3)), [3, [3, 4, 5], 2]);
  assert.deepEqual(ids(rowsAround(eight, 4, 4)), [2, [2, 3, 4, 5], 2]);
  // At the ends the window stays `size` rows long.
  assert.deepEqual(ids(rowsAround(eight, 0, 3)), [0, [0, 1, 2], 5]);
  assert.deepEqual(ids(rowsAround(eight, 7, 3)), [5, [5, 6, 7], 0]);
  // No selection (-1) shows the top; a selection past the end shows the bottom.
  assert.deepEqual(ids(rowsAround(eight, -1, 3)), [0, [0, 1, 2], 5]);
  assert.deepEqual(ids(rowsAround(eight, 12, 3)), [5, [5, 6, 7], 0]);
  // Fewer items than fit: all of them; a size under 1 still shows one.
  assert.deepEqual(ids(rowsAround(eight, 3, 20)), [0, [0, 1, 2, 3, 4, 5, 6, 7], 0]);
  assert.deepEqual(ids(rowsAround(eight, 3, 0)), [3, [3], 4]);
  assert.deepEqual(rowsAround(eight, 2, 1).rows, [{ item: "c", at: 2 }]);
});
