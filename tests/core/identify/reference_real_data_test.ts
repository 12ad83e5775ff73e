/**
 * The shared real GT7 captures, named from the reference lines alone: no
 * signature, no bundle (a fresh store). Each whole lap and each lap driven
 * live is named after its own configuration; Suzuka East is never Suzuka.
 *
 * The four Broad Bean laps of the decoded JSON were driven the other way
 * round from the encrypted capture and the recorded line: their time runs
 * forwards (speed falls whenever the brake is on), yet they pass the road
 * from the line's end to its start, and their yaw is the encrypted capture's
 * turned by half a circle. GT7 calls that layout "BB Raceway (Reverse)".
 */
import { strict as assert } from "node:assert";
import { identifyTrace } from "../../../src/core/identify/identify.ts";
import { LiveReferenceMatcher } from "../../../src/core/identify/live_match.ts";
import {
  type LapPositions,
  matchReferenceLines,
} from "../../../src/core/identify/reference_match.ts";
import { noFixtures } from "../../_fixtures.ts";
import {
  broadBeanLaps,
  captureFrames,
  ENCRYPTED_LAPS,
  recordLaps,
  samplesOfFrames,
} from "./_laps.ts";

/** Official id each encrypted capture is of (Spa: its Full Course and 24h Layout are twins). */
const ENCRYPTED_IDS: Record<string, string> = {
  "broad-bean-raceway--full-course.A.gt7": "1fb373",
  "tsukuba-circuit--full-course.A.gt7": "f18da2",
  "brands-hatch--indy-circuit.A.gt7": "4ff578",
  "suzuka-circuit--full-course.A.gt7": "6e378b",
  "suzuka-circuit--east-course.A.gt7": "4414cb",
  "circuit-de-spa-francorchamps--full-course.A.gt7": "3c4be1+d60ebc",
};
const SPA = "Circuit de Spa-Francorchamps";

function ids(lap: LapPositions): string {
  return matchReferenceLines(lap).match?.configurations.map((c) => c.official_id).join("+") ??
    "none";
}

/** The name live matching gives the lap, and the share of the lap driven by then. */
function live(lap: LapPositions): { name: string | null; share: number } {
  const m = new LiveReferenceMatcher();
  const n = Math.min(lap.pos_x.length, lap.pos_z.length);
  for (let i = 0; i < n; i++) {
    if (m.push(lap.pos_x[i], lap.pos_z[i]) !== null) return { name: m.match!.name, share: i / n };
  }
  return { name: null, share: 1 };
}

Deno.test({
  name: "the six encrypted captures are each named after their configuration, whole and live",
  ignore: noFixtures,
  fn() {
    for (const [file, circuit] of ENCRYPTED_LAPS) {
      const lap = samplesOfFrames(captureFrames(`gt7/encrypted/${file}`));
      // Nothing else to go on: no signature and no bundle names it.
      assert.equal(identifyTrace(lap, [], []), null);
      assert.equal(ids(lap), ENCRYPTED_IDS[file], file);
      const v = matchReferenceLines(lap);
      assert.equal(v.match!.direction, "forward");
      const expected = file.startsWith("broad-bean") ? "BB Raceway" : circuit;
      assert.equal(v.match!.name, expected);
      const named = live(lap);
      assert.equal(named.name, expected, file);
      assert.ok(named.share < 1, file);
    }
  },
});

Deno.test({
  name: "Suzuka East is never Suzuka and Suzuka never Suzuka East",
  ignore: noFixtures,
  fn() {
    const east = matchReferenceLines(
      samplesOfFrames(captureFrames("gt7/encrypted/suzuka-circuit--east-course.A.gt7")),
    );
    const full = matchReferenceLines(
      recordLaps(captureFrames("gt7/suzuka-full-lap.A.gt7.gz"))[0].samples,
    );
    assert.equal(east.match?.name, "Suzuka Circuit East Course");
    assert.equal(full.match?.name, "Suzuka Circuit");
    const suzukaOnEast = east.candidates.find((c) => c.official_id === "6e378b")!;
    assert.equal(suzukaOnEast.fits, false);
    // East's short cut is off the full circuit's line, and most of that line is never passed.
    assert.match(suzukaOnEast.reason, /^1\d\d m of the lap is off the line/);
    assert.ok(suzukaOnEast.missed_m > 3000, `${suzukaOnEast.missed_m}`);
    const eastOnSuzuka = full.candidates.find((c) => c.official_id === "4414cb")!;
    assert.equal(eastOnSuzuka.fits, false);
    assert.match(eastOnSuzuka.reason, /^3\d\d\d m of the lap is off the line/);
  },
});

Deno.test({
  name: "the 60 Hz Suzuka and Spa laps cut by the lap recorder are named, whole and live",
  ignore: noFixtures,
  fn() {
    const suzuka = recordLaps(captureFrames("gt7/suzuka-full-lap.A.gt7.gz"))[0].samples;
    assert.equal(ids(suzuka), "6e378b");
    assert.equal(live(suzuka).name, "Suzuka Circuit");
    const spa = recordLaps(captureFrames("gt7/spa-full-lap.C.gt7.gz"))[0].samples;
    const v = matchReferenceLines(spa);
    // The Full Course and the 24h Layout drive the same road: the circuit is named.
    assert.equal(v.match?.name, SPA);
    assert.equal(v.match?.configuration, null);
    assert.deepEqual(v.suggestions.map((c) => c.official_name), [SPA, "Spa 24h Layout"]);
    assert.equal(live(spa).name, SPA);
  },
});

Deno.test({
  name: "the four Broad Bean laps of the decoded JSON are named BB Raceway (Reverse)",
  ignore: noFixtures,
  fn() {
    for (const lap of broadBeanLaps()) {
      const v = matchReferenceLines(lap);
      assert.equal(v.match?.name, "BB Raceway (Reverse)");
      assert.equal(v.match?.configuration?.official_id, "092b5e");
      assert.equal(v.match?.direction, "reverse");
      assert.equal(live(lap).name, "BB Raceway (Reverse)");
    }
  },
});

Deno.test({
  name: "the partial Nordschleife stream names nothing, whole or live",
  ignore: noFixtures,
  fn() {
    const frames = captureFrames("gt7/nordschleife-partial.tilde.gt7.gz");
    for (const lap of [samplesOfFrames(frames), samplesOfFrames(frames.slice(442))]) {
      const v = matchReferenceLines(lap);
      assert.equal(v.match, null);
      assert.equal(live(lap).name, null);
    }
    // The stretch after the line lies on four Nürburgring layouts; none of them is whole.
    const v = matchReferenceLines(samplesOfFrames(frames.slice(442)));
    const onIt = v.candidates.filter((c) => c.off_m === 0).map((c) => c.official_name).sort();
    assert.deepEqual(onIt, [
      "Nürburgring 24h",
      "Nürburgring Endurance",
      "Nürburgring Nordschleife",
      "Nürburgring Nordschleife Tourist",
    ]);
  },
});
