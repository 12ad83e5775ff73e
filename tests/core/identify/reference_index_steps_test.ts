/**
 * The shared index of reference lines can be built in short steps (to warm
 * it up between other work) and is then the very index every later use gets.
 * Alone in its file: the index is shared by the whole process.
 */
import { strict as assert } from "node:assert";
import { referenceLines } from "../../../src/core/catalog/reference_lines.ts";
import {
  defaultReferenceIndex,
  ReferenceIndex,
  stepDefaultReferenceIndex,
} from "../../../src/core/identify/reference_index.ts";

Deno.test("built in steps, the shared index equals the one built at once, and is kept", () => {
  let steps = 0;
  let index: ReferenceIndex | null = null;
  while (index === null) {
    index = stepDefaultReferenceIndex();
    steps++;
  }
  // A line decoded per step, a line indexed per step, then the hash a few thousand entries a step
  // (4,096 each for the hash and for its entries, with one step between counting a cell's copies
  // and filling its entries; one step returns). 94,467 points; the points of
  // wide roads (Alsace, Lago Maggiore, the Red Bull Ring) near a cell's border are listed in the
  // neighbouring cells too.
  assert.equal(index.points, 94_467);
  const entries = index.entries.length;
  assert.equal(entries, 105_692);
  const hashSteps = Math.floor(entries / 4096);
  assert.equal(steps, 84 + 84 + 1 + hashSteps + 1 + 1 + hashSteps + 1);
  assert.equal(defaultReferenceIndex(), index);
  assert.equal(stepDefaultReferenceIndex(), index);
  const atOnce = new ReferenceIndex(referenceLines());
  assert.equal(index.points, atOnce.points);
  for (
    const key of [
      "px",
      "pz",
      "ps",
      "segLen",
      "pointLine",
      "nearM",
      "entries",
      "entryData",
      "entryLine",
      "copies",
      "copyDX",
      "copyDZ",
      "start",
      "count",
    ] as const
  ) {
    assert.deepEqual(index[key], atOnce[key], key);
  }
  assert.deepEqual(
    index.lines.map((l) => l.configuration.official_id),
    atOnce.lines.map((l) => l.configuration.official_id),
  );
});
