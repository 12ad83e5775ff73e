/**
 * A surveyed bundle's road width outranks the shipped one: a lap 14 m off
 * Suzuka's recorded line is off its default 12 m road, and on it once a
 * survey says the road is 24 m wide; a surveyed narrower road is stricter.
 */
import { strict as assert } from "node:assert";
import { referenceLineOf } from "../../../src/core/catalog/reference_lines.ts";
import {
  defaultReferenceIndex,
  surveyedNearM,
  withRoadWidths,
} from "../../../src/core/identify/reference_index.ts";
import { matchReferenceLines } from "../../../src/core/identify/reference_match.ts";
import { perturbedLap } from "./_perturbed.ts";

const CALM = { wavelength_m: 1e9, phase: Math.PI / 2, noise_m: 0, hole_m: 0, hole_at: 0.5 };
const SUZUKA = "6e378b";

Deno.test("a lap 14 m off Suzuka's line is named only when a survey says the road is 24 m wide", () => {
  const lap = perturbedLap(referenceLineOf(SUZUKA)!, {
    ...CALM,
    offset_m: 14,
    seed: 3,
    reverse: false,
  });
  const base = defaultReferenceIndex();
  const plain = matchReferenceLines(lap, base);
  assert.equal(plain.match, null, plain.reason);
  const wide = withRoadWidths(base, new Map([[SUZUKA, 24]]));
  const v = matchReferenceLines(lap, wide);
  assert.equal(v.match?.configuration?.official_id, SUZUKA, v.reason);
  const own = v.candidates.find((c) => c.official_id === SUZUKA)!;
  assert.equal(own.near_m, 16);
  assert.equal(own.off_m, 0);
  // Every other line keeps the near distance it shipped with.
  base.lines.forEach((line, k) => {
    const id = line.configuration.official_id;
    if (id !== SUZUKA) assert.equal(wide.nearM[k], base.nearM[k], id);
  });
});

Deno.test("a surveyed narrower road makes the near test stricter", () => {
  const lap = perturbedLap(referenceLineOf(SUZUKA)!, {
    ...CALM,
    offset_m: 7,
    seed: 4,
    reverse: false,
  });
  const base = defaultReferenceIndex();
  assert.equal(matchReferenceLines(lap, base).match?.configuration?.official_id, SUZUKA);
  // A 4 m road: near is 6 m, and the lap runs 7 m off the line everywhere.
  const narrow = withRoadWidths(base, new Map([[SUZUKA, 4]]));
  const v = matchReferenceLines(lap, narrow);
  assert.equal(v.match, null, v.reason);
  const own = v.candidates.find((c) => c.official_id === SUZUKA)!;
  assert.equal(own.near_m, 6);
  assert.ok(own.off_m > 5000, `${own.off_m}`);
});

Deno.test("widths that change nothing give the shipped index back, and equal widths one index", () => {
  const base = defaultReferenceIndex();
  assert.equal(withRoadWidths(base, new Map()), base);
  // Suzuka's shipped width is 12 m; Lago Maggiore's 20 m.
  assert.equal(withRoadWidths(base, new Map([[SUZUKA, 12], ["5ba087", 20]])), base);
  const a = withRoadWidths(base, new Map([[SUZUKA, 24]]));
  assert.equal(withRoadWidths(base, new Map([[SUZUKA, 24]])), a);
  assert.notEqual(a, base);
});

Deno.test("a surveyed width's near distance is half of it plus 4 m, at most 20 m; bad widths throw", () => {
  assert.equal(surveyedNearM(24), 16);
  assert.equal(surveyedNearM(60), 20);
  assert.throws(() => surveyedNearM(0), /width_m must be a positive finite number/);
  assert.throws(() => surveyedNearM(Number.NaN), /width_m/);
});

Deno.test("each entry keeps its point's data; a copy lies in a neighbouring cell of its point's", () => {
  const index = defaultReferenceIndex();
  let copies = 0;
  for (let slot = 0; slot <= index.mask; slot++) {
    const n = index.count[slot];
    if (n <= 0) continue;
    const first = index.start[slot];
    for (let e = first; e < first + n; e++) {
      const g = index.entries[e];
      const copy = e >= first + n - index.copies[slot];
      assert.equal(index.entryData[4 * e], index.px[g]);
      assert.equal(index.entryData[4 * e + 1], index.pz[g]);
      assert.equal(index.entryData[4 * e + 2], index.nearM[index.pointLine[g]] ** 2);
      assert.equal(index.entryData[4 * e + 3], index.ps[g]);
      assert.equal(index.entryLine[e], index.pointLine[g]);
      const own = Math.floor(index.px[g] / index.cell_m) === index.keyX[slot] + index.copyDX[e] &&
        Math.floor(index.pz[g] / index.cell_m) === index.keyZ[slot] + index.copyDZ[e];
      assert.ok(own, `entry ${e}`);
      assert.equal(copy, index.copyDX[e] !== 0 || index.copyDZ[e] !== 0, `entry ${e}`);
      // Only a wide road's points are copied.
      if (copy) assert.ok(index.nearM[index.pointLine[g]] > index.cell_m);
      if (copy) copies++;
    }
  }
  assert.equal(copies, index.entries.length - index.points);
});
