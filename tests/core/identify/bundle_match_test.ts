import { strict as assert } from "node:assert";
import {
  type BundleCandidate,
  coverage,
  isWholeLap,
  matchBundles,
  MAX_TESTED_POSITIONS,
  testedIndexes,
} from "../../../src/core/identify/bundle_match.ts";
import { buildFingerprint } from "../../../src/core/identify/fingerprint.ts";
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
