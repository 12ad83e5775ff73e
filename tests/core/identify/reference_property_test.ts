/**
 * Small noise (up to 1 m on each axis) and a few lost points never turn a
 * correct name into a wrong one, whole or live: the noisy lap gets the
 * clean lap's name or none.
 */
import { strict as assert } from "node:assert";
import fc from "fast-check";
import { referenceLineOf } from "../../../src/core/catalog/reference_lines.ts";
import { LiveReferenceMatcher } from "../../../src/core/identify/live_match.ts";
import {
  type LapPositions,
  matchReferenceLines,
} from "../../../src/core/identify/reference_match.ts";
import { replayLine } from "../../../src/core/identify/reference_replay.ts";
import { noFixtures } from "../../_fixtures.ts";
import { seededRandom } from "../../_random.ts";
import {
  broadBeanLaps,
  captureFrames,
  ENCRYPTED_LAPS,
  recordLaps,
  samplesOfFrames,
} from "./_laps.ts";

const live = new LiveReferenceMatcher();

function wholeName(lap: LapPositions): string | null {
  return matchReferenceLines(lap).match?.name ?? null;
}

function liveName(lap: LapPositions): string | null {
  live.reset();
  for (let i = 0; i < lap.pos_x.length; i++) live.push(lap.pos_x[i], lap.pos_z[i]);
  return live.match?.name ?? null;
}

/** The lap with up to ±`noise` m on each axis and the given samples lost. */
function disturb(
  lap: LapPositions,
  seed: number,
  lost: readonly number[],
  noise = 1,
): LapPositions {
  const rnd = seededRandom(seed);
  const gone = new Set(lost.map((k) => k % lap.pos_x.length));
  const x: number[] = [];
  const z: number[] = [];
  for (let i = 0; i < lap.pos_x.length; i++) {
    if (gone.has(i)) continue;
    x.push(lap.pos_x[i] + (rnd() * 2 - 1) * noise);
    z.push(lap.pos_z[i] + (rnd() * 2 - 1) * noise);
  }
  return { pos_x: x, pos_z: z };
}

/** Checks the property over `laps`, whose clean names must all be given. */
function check(laps: readonly LapPositions[], runs: number): void {
  const clean = laps.map((l) => [wholeName(l), liveName(l)]);
  for (const [whole, onTheWay] of clean) assert.ok(whole !== null && onTheWay !== null);
  fc.assert(
    fc.property(
      fc.nat(laps.length - 1),
      fc.integer(),
      fc.array(fc.nat(1_000_000), { maxLength: 12 }),
      fc.nat(40),
      (k, seed, lost, burst) => {
        // Scattered losses plus one burst of up to 40 samples (two thirds of a second at 60 Hz).
        const at = lost.length > 0 ? lost[0] : 0;
        const all = [...lost, ...Array.from({ length: burst }, (_, i) => at + i)];
        const noisy = disturb(laps[k], seed, all);
        const [whole, onTheWay] = [wholeName(noisy), liveName(noisy)];
        assert.ok(whole === null || whole === clean[k][0], `${clean[k][0]} became ${whole}`);
        assert.ok(
          onTheWay === null || onTheWay === clean[k][1],
          `${clean[k][1]} became ${onTheWay} live`,
        );
      },
    ),
    { numRuns: runs, seed: 16 },
  );
}

Deno.test("noise and lost points never give a replayed look-alike or nested layout a wrong name", () => {
  const laps = [
    "e6817f", // Monza
    "f9e0f3", // Monza No Chicane
    "d066e4", // Fuji
    "b1c9f8", // Fuji Short
    "c7e77c", // Red Bull Ring Short Track
    "e829d7", // Lago Maggiore West
    "4414cb", // Suzuka East
    "5aeb53", // Tokyo Central Clockwise
    "d60ebc", // Spa 24h (named by its circuit)
    "6dfca5", // Kyoto Yamagiwa
  ].map((id) => replayLine(referenceLineOf(id)!));
  laps.push(replayLine(referenceLineOf("81f860")!, { reverse: true })); // Alsace Village (Reverse)
  check(laps, 60);
});

Deno.test({
  name: "noise and lost points never give a real lap a wrong name",
  ignore: noFixtures,
  fn() {
    const laps: LapPositions[] = ENCRYPTED_LAPS.map(([file]) =>
      samplesOfFrames(captureFrames(`gt7/encrypted/${file}`))
    );
    laps.push(recordLaps(captureFrames("gt7/suzuka-full-lap.A.gt7.gz"))[0].samples);
    laps.push(recordLaps(captureFrames("gt7/spa-full-lap.C.gt7.gz"))[0].samples);
    laps.push(broadBeanLaps()[0]);
    check(laps, 60);
  },
});
