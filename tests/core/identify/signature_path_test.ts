/**
 * The driving line a signature keeps, and the direction test over it: a lap
 * driven the way the signature's lap was is "forward", the other way round
 * "reverse" (the five numbers cannot tell), elsewhere "unknown".
 */
import { strict as assert } from "node:assert";
import { referenceLineOf, referenceLines } from "../../../src/core/catalog/reference_lines.ts";
import { forwardShare, travelDirection } from "../../../src/core/identify/direction.ts";
import { replayLine } from "../../../src/core/identify/reference_replay.ts";
import {
  lapPath,
  MAX_PATH_POINTS,
  PATH_STEP_M,
  pathDirection,
} from "../../../src/core/identify/signature_path.ts";
import { noFixtures } from "../../_fixtures.ts";
import { broadBeanLaps, captureFrames, recordLaps, syntheticLaps } from "./_laps.ts";

function reversed<T extends { pos_x: ArrayLike<number>; pos_z: ArrayLike<number> }>(lap: T) {
  return { pos_x: Array.from(lap.pos_x).reverse(), pos_z: Array.from(lap.pos_z).reverse() };
}

Deno.test("a path keeps a point every 20 m or more, in the order driven, to the decimetre", () => {
  const lap = {
    pos_x: [0, 5, 10, 19.99, 20.04, 30, 40.123, 41, Number.NaN, 95],
    pos_z: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  };
  assert.deepEqual(lapPath(lap), [0, 0, 20, 0, 40.1, 0, 95, 0]);
  // Fewer than two points: no path.
  assert.deepEqual(lapPath({ pos_x: [1, 2, 3], pos_z: [0, 0, 0] }), []);
  assert.deepEqual(lapPath({ pos_x: [], pos_z: [] }), []);
  const [synthetic] = syntheticLaps(3);
  const path = lapPath(synthetic.samples);
  for (let j = 1; j < path.length / 2; j++) {
    const d = Math.hypot(path[2 * j] - path[2 * j - 2], path[2 * j + 1] - path[2 * j - 1]);
    assert.ok(d >= PATH_STEP_M - 0.15, `point ${j}: ${d} m`);
  }
});

Deno.test("a lap over 30 km keeps at most 1,500 points, spaced wider", () => {
  // Three laps of the longest line in a row (Special Stage Route X: about 91 km).
  const line = referenceLines().reduce((a, b) => (b.length_m > a.length_m ? b : a));
  const once = replayLine(line, { hz: 10 });
  const thrice = {
    pos_x: [...once.pos_x, ...once.pos_x, ...once.pos_x],
    pos_z: [...once.pos_z, ...once.pos_z, ...once.pos_z],
  };
  const path = lapPath(thrice);
  const points = path.length / 2;
  assert.ok(points <= MAX_PATH_POINTS && points > MAX_PATH_POINTS * 0.9, `${points} points`);
  const spacing = (3 * line.length_m) / MAX_PATH_POINTS;
  for (let j = 1; j < points; j++) {
    const d = Math.hypot(path[2 * j] - path[2 * j - 2], path[2 * j + 1] - path[2 * j - 1]);
    assert.ok(d >= spacing - 1, `point ${j}: ${d} m`);
  }
});

Deno.test("the direction test: the same way round, the other way, or somewhere else", () => {
  const [first, second] = syntheticLaps(3, 2);
  const path = lapPath(first.samples);
  const ahead = pathDirection(path, second.samples);
  assert.equal(travelDirection(ahead), "forward");
  assert.equal(forwardShare(ahead), 1);
  const back = pathDirection(path, reversed(second.samples));
  assert.equal(travelDirection(back), "reverse");
  assert.equal(forwardShare(back), 0);
  // Another circuit's lap never comes near the path.
  const [elsewhere] = syntheticLaps(5);
  const shifted = {
    pos_x: elsewhere.samples.pos_x.map((x) => x + 10_000),
    pos_z: elsewhere.samples.pos_z,
  };
  assert.deepEqual(pathDirection(path, shifted), { with_m: 0, against_m: 0 });
  assert.equal(travelDirection(pathDirection([], second.samples)), "unknown");
});

Deno.test("every reference line: its path tells the line driven forward from backwards", () => {
  for (const line of referenceLines()) {
    const lap = replayLine(line);
    const path = lapPath(lap);
    const name = line.configuration.official_name;
    assert.equal(travelDirection(pathDirection(path, lap)), "forward", name);
    assert.equal(travelDirection(pathDirection(path, reversed(lap))), "reverse", name);
  }
});

Deno.test({
  name: "real laps: Suzuka's figure of eight, and Broad Bean both ways round",
  ignore: noFixtures,
  fn() {
    const suzuka = recordLaps(captureFrames("gt7/suzuka-full-lap.A.gt7.gz"))[0].samples;
    const path = lapPath(suzuka);
    // Where the road crosses itself, the other branch is as near as this one: still one way.
    const replay = replayLine(referenceLineOf("6e378b")!);
    assert.equal(travelDirection(pathDirection(path, replay)), "forward");
    assert.equal(travelDirection(pathDirection(path, reversed(replay))), "reverse");
    // The decoded Broad Bean laps were driven the other way round from the reference line.
    const bb = lapPath(replayLine(referenceLineOf("1fb373")!));
    for (const lap of broadBeanLaps()) {
      assert.equal(travelDirection(pathDirection(bb, lap)), "reverse");
      assert.equal(travelDirection(pathDirection(lapPath(lap), lap)), "forward");
    }
  },
});
