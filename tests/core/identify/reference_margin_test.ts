/**
 * Names from the road, not from one number: a lap is near a line within
 * its road's half-width plus a margin, a closely fitting line names a lap
 * when it fits clearly better than any other, and a hole of up to 5 % of
 * the lap is bridged.
 */
import { strict as assert } from "node:assert";
import { referenceLineOf } from "../../../src/core/catalog/reference_lines.ts";
import { nearDistanceM, roadWidthM } from "../../../src/core/catalog/road_widths.ts";
import { configurationById } from "../../../src/core/catalog/tracks.ts";
import { defaultReferenceIndex } from "../../../src/core/identify/reference_index.ts";
import { matchReferenceLines } from "../../../src/core/identify/reference_match.ts";
import { perturbedLap } from "./_perturbed.ts";

const CALM = { wavelength_m: 1500, phase: Math.PI / 2, noise_m: 0, hole_m: 0, hole_at: 0.5 };

Deno.test("near the line is half the road's width plus 4 m: wide roads are listed", () => {
  const suzuka = configurationById("6e378b")!;
  const lago = configurationById("5ba087")!;
  assert.equal(roadWidthM(suzuka), 12);
  assert.equal(nearDistanceM(suzuka), 10);
  assert.equal(roadWidthM(lago), 20);
  assert.equal(nearDistanceM(lago), 14);
  const index = defaultReferenceIndex();
  const k = index.lines.findIndex((l) => l.configuration === lago);
  assert.equal(index.nearM[k], 14);
});

Deno.test("a lap 12 m off Lago Maggiore's recorded line is still on its 20 m road", () => {
  const line = referenceLineOf("5ba087")!;
  // A constant offset (the phase puts the swing's peak at the start; a long wavelength holds it).
  const lap = perturbedLap(line, {
    ...CALM,
    wavelength_m: 1e9,
    offset_m: 12,
    seed: 1,
    reverse: false,
  });
  const v = matchReferenceLines(lap);
  assert.equal(v.match?.name, "Autodrome Lago Maggiore - Full Course", v.reason);
  const own = v.candidates.find((c) => c.official_id === "5ba087")!;
  assert.equal(own.near_m, 14);
  assert.equal(own.off_m, 0);
  // On a 12 m road, 12 m off the line is off it.
  const suzuka = perturbedLap(referenceLineOf("6e378b")!, {
    ...CALM,
    wavelength_m: 1e9,
    offset_m: 12,
    seed: 1,
    reverse: false,
  });
  assert.equal(matchReferenceLines(suzuka).match, null);
});

Deno.test("a lap a little off its line in places is named by margin, and says so", () => {
  const line = referenceLineOf("6e378b")!;
  // The offset swings to 9.8 m either side: at the swings' peaks, between the line's points (kept
  // every 5 m), a little of the lap is further than 10 m from any.
  const lap = perturbedLap(line, {
    ...CALM,
    offset_m: 9.8,
    wavelength_m: 1200,
    seed: 3,
    reverse: false,
  });
  const v = matchReferenceLines(lap);
  const own = v.candidates.find((c) => c.official_id === "6e378b")!;
  assert.equal(own.fits, false);
  assert.ok(own.off_m > 60 && own.off_m <= 0.05 * v.lap_m, `${own.off_m} m off`);
  assert.equal(own.close, true);
  assert.equal(v.match?.name, "Suzuka Circuit", v.reason);
  assert.match(v.reason, /^named Suzuka Circuit by margin: its line fits closely/);
  assert.ok(v.margin_m !== null && v.margin_m >= 150, `${v.margin_m}`);
});

Deno.test("a hole of up to 5 % of the lap is bridged; a longer one leaves the lap unnamed", () => {
  const line = referenceLineOf("6e378b")!;
  const holed = (hole_m: number) =>
    matchReferenceLines(
      perturbedLap(line, { ...CALM, offset_m: 0, hole_m, hole_at: 0.3, seed: 5, reverse: false }),
    );
  const bridged = holed(250);
  assert.equal(bridged.match?.name, "Suzuka Circuit", bridged.reason);
  assert.ok(bridged.hole_m > 200 && bridged.hole_m < 0.05 * line.length_m, `${bridged.hole_m}`);
  const own = bridged.candidates.find((c) => c.official_id === "6e378b")!;
  // The line's road across the hole counts as passed.
  assert.ok(own.missed_m < 20, `${own.missed_m} m missed`);
  const unseen = holed(400);
  assert.equal(unseen.match, null);
  assert.match(unseen.reason, /of the lap went unseen/);
});
