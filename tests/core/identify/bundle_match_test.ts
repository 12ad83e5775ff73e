import { strict as assert } from "node:assert";
import {
  type BundleCandidate,
  coverage,
  isWholeLap,
  matchBundles,
  MAX_TESTED_POSITIONS,
  testedIndexes,
} from "../../../src/core/identify/bundle_match.ts";
import { buildFingerprint, headingNear } from "../../../src/core/identify/fingerprint.ts";
import { lapLength, type LapTrace } from "../../../src/core/identify/signature.ts";
import { generateCircuit } from "../../../src/core/synthetic/circuit.ts";
import { borderPoints, syntheticLaps } from "./_laps.ts";

const SEEDS = [1, 2, 3, 4, 5, 7];

function candidate(seed: number, opts: Parameters<typeof borderPoints>[1] = {}, slug = `s${seed}`) {
  return {
    slug,
    track: `Synthetic ${seed}`,
    fingerprint: buildFingerprint(borderPoints(generateCircuit(seed), opts)),
  };
}

const BUNDLES: BundleCandidate[] = SEEDS.map((s) => candidate(s));
const LAPS = new Map(SEEDS.map((s) => [s, syntheticLaps(s)[0].samples]));

function verdict(trace: LapTrace, candidates: readonly BundleCandidate[]) {
  return matchBundles(trace, lapLength(trace), candidates);
}

Deno.test("each synthetic circuit's lap names its own bundle, with a clear lead", () => {
  for (const seed of SEEDS) {
    const v = verdict(LAPS.get(seed)!, BUNDLES);
    assert.equal(v.match?.slug, `s${seed}`, `seed ${seed}: ${v.reason}`);
    assert.equal(v.match?.track, `Synthetic ${seed}`);
    assert.equal(v.match?.coverage, 1);
    assert.equal(v.tested, MAX_TESTED_POSITIONS);
    assert.ok(v.runner_up < 0.45, `seed ${seed}: runner-up ${v.runner_up}`);
    assert.equal(v.scores.length, SEEDS.length);
  }
});

Deno.test("a lap 5 km away from the only bundle names nothing", () => {
  const far = candidate(1, { dx: 5000 });
  const v = verdict(LAPS.get(1)!, [far]);
  assert.equal(v.match, null);
  assert.equal(v.scores[0].coverage, 0);
  // Moved 5 km along z instead, the same.
  assert.equal(verdict(LAPS.get(1)!, [candidate(1, { dz: -5000 })]).match, null);
});

Deno.test("two identical bundles name nothing: neither leads", () => {
  const twin = candidate(2, {}, "s2-copy");
  const v = verdict(LAPS.get(2)!, [...BUNDLES, twin]);
  assert.equal(v.match, null);
  assert.equal(v.scores[0].coverage, 1);
  assert.equal(v.runner_up, 1);
  assert.match(v.reason!, /less than 25 points/);
});

Deno.test("half a lap names nothing, although every position it has lies on the bundle", () => {
  const full = LAPS.get(3)!;
  const n = Math.floor(full.t.length / 2);
  const half = {
    t: full.t.slice(0, n),
    speed: full.speed.slice(0, n),
    pos_x: full.pos_x.slice(0, n),
    pos_z: full.pos_z.slice(0, n),
  };
  assert.equal(isWholeLap(half, lapLength(half)), false);
  assert.equal(coverage(BUNDLES[2].fingerprint, half.pos_x, half.pos_z, testedIndexes(n)), 1);
  const v = verdict(half, BUNDLES);
  assert.equal(v.match, null);
  assert.equal(v.reason, "the lap is not whole");
});

Deno.test("a bundle surveyed over 75 % of the lap still names the lap", () => {
  for (const seed of [1, 4]) {
    const partial = SEEDS.map((
      s,
    ) => (s === seed ? candidate(s, { fraction: 0.75 }) : candidate(s)));
    const v = verdict(LAPS.get(seed)!, partial);
    assert.equal(v.match?.slug, `s${seed}`, `seed ${seed}: ${v.reason}`);
    assert.ok(v.match!.coverage >= 0.75 && v.match!.coverage < 0.85, `${v.match!.coverage}`);
  }
});

Deno.test("with no bundle or a parked car, nothing is named", () => {
  assert.equal(verdict(LAPS.get(5)!, []).match, null);
  const parked = { t: [1, 2, 3], speed: [0, 0, 0], pos_x: [0, 0, 0], pos_z: [0, 0, 0] };
  assert.equal(isWholeLap(parked, 0), false);
  assert.equal(verdict(parked, BUNDLES).reason, "the lap is not whole");
});

Deno.test("a lap is whole when it ends within max(60 m, 5 % of its length) of its start", () => {
  const trace = (gap: number) => ({ t: [0, 1], speed: [0, 0], pos_x: [0, gap], pos_z: [0, 0] });
  assert.equal(isWholeLap(trace(60), 1000), true);
  assert.equal(isWholeLap(trace(60.01), 1000), false);
  assert.equal(isWholeLap(trace(250), 5000), true);
  assert.equal(isWholeLap(trace(250.01), 5000), false);
  assert.equal(isWholeLap(trace(0), 399.99), false);
  assert.equal(isWholeLap(trace(0), 400), true);
});

Deno.test("at most 600 positions are tested, evenly spread from the first", () => {
  assert.deepEqual(testedIndexes(3), [0, 1, 2]);
  assert.equal(testedIndexes(600).length, 600);
  for (const n of [601, 1199, 1200, 5647, 54_000]) {
    const idx = testedIndexes(n);
    assert.equal(idx.length, 600);
    assert.equal(idx[0], 0);
    assert.equal(new Set(idx).size, 600);
    const step = n / 600;
    for (let i = 1; i < idx.length; i++) {
      const gap = idx[i] - idx[i - 1];
      assert.ok(gap >= Math.floor(step) && gap <= Math.ceil(step), `n ${n}: gap ${gap}`);
    }
    assert.ok(idx[599] >= n - Math.ceil(step) && idx[599] < n);
  }
});

/**
 * A ring of 600 positions 100 m apart (far more than a 3x3 block), so a
 * bundle made of the first k positions covers exactly k / 600.
 */
function ring() {
  const n = 600;
  const r = (n * 100) / (2 * Math.PI);
  const pos_x = Array.from({ length: n }, (_, i) => r * Math.cos((2 * Math.PI * i) / n));
  const pos_z = Array.from({ length: n }, (_, i) => r * Math.sin((2 * Math.PI * i) / n));
  // 100 m per sample at 60 samples a second.
  return { t: pos_x.map((_, i) => (i + 1) / 60), speed: pos_x.map(() => 6000 * 3.6), pos_x, pos_z };
}

function firstOf(trace: ReturnType<typeof ring>, k: number, slug: string): BundleCandidate {
  const points = Array.from({ length: k }, (_, i) => ({ x: trace.pos_x[i], z: trace.pos_z[i] }));
  return { slug, track: slug, fingerprint: buildFingerprint(points) };
}

Deno.test("the winner needs a lead of 25 points: exactly 25 names, 24.8 does not", () => {
  const lap = ring();
  const ok = verdict(lap, [firstOf(lap, 510, "a"), firstOf(lap, 360, "b")]);
  assert.equal(ok.match?.slug, "a");
  assert.equal(ok.match?.coverage, 0.85);
  assert.equal(ok.runner_up, 0.6);
  const close = verdict(lap, [firstOf(lap, 510, "a"), firstOf(lap, 361, "b")]);
  assert.equal(close.match, null);
});

Deno.test("the winner needs 60 % coverage: exactly 60 names, 59.8 does not", () => {
  const lap = ring();
  assert.equal(verdict(lap, [firstOf(lap, 360, "a"), firstOf(lap, 210, "b")]).match?.slug, "a");
  assert.equal(verdict(lap, [firstOf(lap, 360, "a")]).match?.coverage, 0.6);
  assert.equal(verdict(lap, [firstOf(lap, 359, "a")]).match, null);
});

Deno.test("the direction test: a lap driven against the travel directions of the edges names nothing", () => {
  const withHeadings = [candidate(3, { headings: true })];
  const lap = LAPS.get(3)!;
  const ahead = verdict(lap, withHeadings);
  assert.deepEqual(
    [ahead.match?.slug, ahead.direction, ahead.forward_share, ahead.reason],
    ["s3", "forward", 1, null],
  );
  const back = {
    ...lap,
    pos_x: [...lap.pos_x].reverse(),
    pos_z: [...lap.pos_z].reverse(),
    speed: [...lap.speed].reverse(),
  };
  const refused = verdict(back, withHeadings);
  assert.equal(refused.match, null);
  assert.deepEqual([refused.direction, refused.forward_share], ["reverse", 0]);
  assert.equal(refused.reason, "the lap goes round Synthetic 3 the other way from its survey");
  // The same coverage both ways: only the direction refused it.
  assert.equal(refused.scores[0].coverage, ahead.scores[0].coverage);
  // Edges without travel directions (surveyed before they were kept) cannot tell: it matches.
  const plain = verdict(back, [candidate(3)]);
  assert.deepEqual([plain.match?.slug, plain.direction], ["s3", "unknown"]);
  // A survey that says one way on half the circuit and the other way on the rest: neither.
  const n = 600;
  const r = (n * 10) / (2 * Math.PI);
  const angle = (i: number) => (2 * Math.PI * i) / n;
  const loop = {
    t: Array.from({ length: n }, (_, i) => (i + 1) / 60),
    speed: Array.from({ length: n }, () => 600 * 3.6),
    pos_x: Array.from({ length: n }, (_, i) => r * Math.cos(angle(i))),
    pos_z: Array.from({ length: n }, (_, i) => r * Math.sin(angle(i))),
  };
  const contrary = loop.pos_x.map((x, i) => {
    const sign = i < n / 2 ? 1 : -1;
    return { x, z: loop.pos_z[i], hx: -sign * Math.sin(angle(i)), hz: sign * Math.cos(angle(i)) };
  });
  const both = verdict(loop, [{ slug: "c", track: "C", fingerprint: buildFingerprint(contrary) }]);
  assert.equal(both.match, null);
  assert.equal(both.direction, "mixed");
  assert.match(
    both.reason!,
    /^the lap does not go round C one way \(5\d\.\d % the survey's way\)$/,
  );
});

Deno.test("fingerprint headings: summed per cell, looked up over the 3x3 block", () => {
  const fp = buildFingerprint([
    { x: 10, z: 10, hx: 1, hz: 0 },
    { x: 12, z: 10, hx: 0.6, hz: 0.8 },
    { x: 50, z: 10, hx: 0, hz: 1 },
    { x: 90, z: 90 },
    { x: 95, z: 95, hx: 0, hz: 0 },
  ]);
  assert.equal(fp.headings.size, 2);
  assert.deepEqual(headingNear(fp, 10, 10), [1.6, 0.8]);
  // Cell (1, 0) sees cell (0, 0) and cell (2, 0).
  assert.deepEqual(headingNear(fp, 30, 10), [1.6, 1.8]);
  assert.deepEqual(headingNear(fp, 90, 90), [0, 0]);
  assert.equal(buildFingerprint([{ x: 1, z: 1 }]).headings.size, 0);
});
