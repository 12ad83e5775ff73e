import { strict as assert } from "node:assert";
import fc from "fast-check";
import {
  excursions,
  isLoose,
  looseMask,
  maskWheels,
  offTrackCount,
  OTHER_SURFACE,
  packSurface,
  unpackSurface,
} from "../../../src/core/laps/surface_code.ts";

/** A surface column: `ticks` copies of each [letters, ticks] pair, in order. */
function column(...parts: [string, number][]): number[] {
  return parts.flatMap(([letters, ticks]) => Array(ticks).fill(packSurface(letters)));
}

Deno.test("packSurface: TCDG packs FL | FR<<4 | RL<<8 | RR<<12 with codes 1..4", () => {
  const code = packSurface("TCDG");
  assert.equal(code, 0x4321);
  assert.deepEqual(unpackSurface(code), [1, 2, 3, 4]);
  assert.deepEqual(unpackSurface(packSurface("SsTT")), [5, 6, 1, 1]);
});

Deno.test("packSurface: an unknown letter packs as 7 and is not loose", () => {
  assert.equal(OTHER_SURFACE, 7);
  assert.deepEqual(unpackSurface(packSurface("TxTt")), [1, 7, 1, 7]);
  assert.equal(isLoose(7), false);
  assert.equal(looseMask(packSurface("xxxx")), 0);
});

Deno.test("packSurface: null, undefined or fewer than 4 letters give 0", () => {
  assert.equal(packSurface(null), 0);
  assert.equal(packSurface(undefined), 0);
  assert.equal(packSurface(""), 0);
  assert.equal(packSurface("TTG"), 0);
  assert.equal(packSurface("TTTTG"), packSurface("TTTT"));
});

Deno.test("isLoose: dirt, grass, sand and snow only", () => {
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 15].map(isLoose),
    [false, false, false, true, true, true, true, false, false, false],
  );
});

Deno.test("looseMask and maskWheels name the wheels on loose ground", () => {
  assert.equal(looseMask(packSurface("GTDs")), 0b1101);
  assert.deepEqual(maskWheels(looseMask(packSurface("GTDs"))), ["fl", "rl", "rr"]);
  assert.deepEqual(maskWheels(0), []);
});

Deno.test("pack/unpack round-trips any four letters", () => {
  const letter = fc.constantFrom("T", "C", "D", "G", "S", "s", "x", "?");
  fc.assert(
    fc.property(fc.tuple(letter, letter, letter, letter), (ls) => {
      const codes = unpackSurface(packSurface(ls.join("")));
      const expected = ls.map((l) => "TCDGSs".indexOf(l) + 1 || 7);
      assert.deepEqual(codes, expected);
    }),
  );
});

Deno.test("offTrackCount: missing, empty or all-zero column is unknown (-1)", () => {
  assert.equal(offTrackCount(undefined), -1);
  assert.equal(offTrackCount([]), -1);
  assert.equal(offTrackCount([0, 0, 0, 0, 0, 0, 0, 0]), -1);
});

Deno.test("offTrackCount: 6 ticks with 3 loose wheels is one excursion, 5 ticks none", () => {
  assert.equal(offTrackCount(column(["TTTT", 10], ["GGGT", 6], ["TTTT", 10])), 1);
  assert.equal(offTrackCount(column(["TTTT", 10], ["GGGT", 5], ["TTTT", 10])), 0);
});

Deno.test("offTrackCount: 2 loose wheels never count, however long", () => {
  assert.equal(offTrackCount(column(["GGTT", 100])), 0);
  assert.equal(offTrackCount(column(["TTDS", 100])), 0);
});

Deno.test("excursions: one per run, with the union of loose wheels and the most at once", () => {
  const surface = column(
    ["TTTT", 3],
    ["GGGT", 4],
    ["GGGG", 2], // same run continues with four wheels
    ["TTTT", 5],
    ["TDDD", 7], // second run, at the end of the lap
  );
  assert.deepEqual(excursions(surface), [
    { first: 3, last: 8, wheels: 0b0111 | 0b1000, maxLoose: 4 },
    { first: 14, last: 20, wheels: 0b1110, maxLoose: 3 },
  ]);
  assert.equal(offTrackCount(surface), 2);
});

Deno.test("excursions: a tick without surface data ends a run", () => {
  const surface = [...column(["GGGG", 4]), 0, ...column(["GGGG", 4])];
  assert.deepEqual(excursions(surface), []);
});
