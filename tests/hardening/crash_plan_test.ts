/**
 * The crash tests' own instruments: the kill plan spreads its kills as it
 * says, gates cover every commit of every write and say what the store
 * must hold there, progress lines are read into the right landing, and the leftover
 * count sees every kind of leftover (so "no leftovers" after a restart is a
 * finding, not a blind spot).
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { getBundleHead } from "../../src/storage/bundles.ts";
import { syntheticBundle } from "../_bundles.ts";
import { formatGate, parseGate } from "./_crash_probe.ts";
import {
  commitsOf,
  landingOf,
  leftoversOf,
  OVERSHOOT,
  planGates,
  planKills,
  type ProbeLine,
  progressOf,
  visibleAtGate,
  WriteClock,
  type WriteTiming,
} from "./_crash_harness.ts";

const TIMING: WriteTiming[] = [
  { begin: 100, write: 110, end: 150 },
  { begin: 400, write: 405, end: 505 },
  { begin: 900, write: 930, end: 940 },
];

Deno.test("planKills: 50 kills, evenly over the writes, one per stratum, a tenth before the write", () => {
  const plan = planKills(50, 3, 42);
  assert.equal(plan.length, 50);
  assert.deepEqual([1, 2, 3].map((n) => plan.filter((a) => a.n === n).length), [17, 17, 16]);
  const early = plan.filter((a) => a.anchor === "begin");
  assert.deepEqual(early.map((a) => plan.indexOf(a)), [9, 19, 29, 39, 49]);
  assert.ok(plan.every((a) => a.fraction >= 0 && a.fraction < 1));
  for (const n of [1, 2, 3]) {
    const strata = plan.filter((a) => a.n === n && a.anchor === "write")
      .map((a) => Math.floor(a.fraction * 17));
    assert.equal(new Set(strata).size, strata.length, `write ${n}: two kills in one stratum`);
  }
  assert.deepEqual(planKills(50, 3, 42), plan);
  assert.notDeepEqual(planKills(50, 3, 43), plan);
});

Deno.test("WriteClock: medians of the calibration and of every write a child saw through", () => {
  const clock = new WriteClock(TIMING);
  assert.deepEqual([clock.lead(1), clock.span(1), clock.span(2), clock.span(3)], [10, 40, 100, 10]);
  assert.equal(clock.delayOf({ n: 2, anchor: "write", fraction: 0.5 }), 0.5 * OVERSHOOT * 100);
  assert.equal(clock.delayOf({ n: 1, anchor: "begin", fraction: 0.5 }), 5);
  const line = (event: string, n: number, ms: number): ProbeLine => ({ event, n, ms });
  // A child that finished write 1 quickly and was killed inside write 2.
  clock.learn([line("begin", 1, 0), line("write", 1, 2), line("end", 1, 22), line("write", 2, 30)]);
  clock.learn([line("begin", 1, 0), line("write", 1, 4), line("end", 1, 24)]);
  assert.deepEqual([clock.lead(1), clock.span(1), clock.span(2)], [4, 20, 100]);
});

const lines = (...events: string[]): ProbeLine[] =>
  events.map((e, i) => ({ event: e.split(" ")[0], n: Number(e.split(" ")[1]), ms: i }));

Deno.test("progressOf and landingOf: in flight, before, after", () => {
  const mid = progressOf(
    lines("begin 1", "write 1", "done 1", "visible 1", "end 1", "begin 2", "write 2", "done 2"),
  );
  assert.deepEqual(mid, { started: 2, visible: 1, ended: 1, inside: true });
  assert.equal(landingOf(mid, 2), "inside");
  // Readable, not yet ended: a later commit of the write (a sweep) was in flight.
  const flipped = progressOf(lines("write 1", "done 1", "done 1", "visible 1", "done 1"));
  assert.deepEqual(flipped, { started: 1, visible: 1, ended: 0, inside: true });
  const early = progressOf(
    lines("ready 0", "begin 1", "write 1", "done 1", "visible 1", "end 1", "begin 2"),
  );
  assert.deepEqual(early, { started: 1, visible: 1, ended: 1, inside: false });
  assert.equal(landingOf(early, 2), "before");
  assert.equal(landingOf(early, 1), "after");
  assert.equal(landingOf(progressOf(lines("ready 0")), 1), "before");
});

Deno.test("gates: before and after every commit of every write, and what each must leave", () => {
  const calibration = lines(
    "begin 1",
    "write 1",
    "done 1",
    "done 1",
    "visible 1",
    "end 1",
    "begin 2",
    "write 2",
    "done 2",
    "done 2",
    "visible 2",
    "done 2",
    "end 2",
  );
  const writes = commitsOf(calibration, 2);
  assert.deepEqual(writes, [{ commits: 2, visibleAt: 2 }, { commits: 3, visibleAt: 2 }]);
  const gates = planGates(writes);
  assert.deepEqual(gates.map(formatGate), [
    "1:1:before",
    "1:1:after",
    "1:2:before",
    "1:2:after",
    "2:1:before",
    "2:1:after",
    "2:2:before",
    "2:2:after",
    "2:3:before",
    "2:3:after",
  ]);
  assert.deepEqual(gates.map((g) => visibleAtGate(g, writes)), [0, 0, 0, 1, 1, 1, 1, 2, 2, 2]);
  for (const g of gates) assert.deepEqual(parseGate(formatGate(g)), g);
  assert.equal(parseGate(undefined), null);
  assert.throws(() => parseGate("1:2:during"), /bad gate "1:2:during"/);
  // A sample: one from each of four equal runs of the list, in order, the same for a seed.
  const sample = planGates(writes, 4, 7);
  assert.equal(sample.length, 4);
  sample.forEach((g, k) => {
    const at = gates.findIndex((x) => formatGate(x) === formatGate(g));
    assert.ok(at >= Math.floor(k * 10 / 4) && at < Math.floor((k + 1) * 10 / 4), formatGate(g));
  });
  assert.deepEqual(planGates(writes, 4, 7), sample);
  assert.deepEqual(planGates(writes, 99), gates);
  assert.throws(() => commitsOf(lines("write 1", "done 1", "end 1"), 1), /visible at 0/);
});

Deno.test("leftoversOf counts stray generations, pending markers, broken heads and lap samples", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const app = await createApp({ kv, now: () => new Date("2026-11-21T12:00:00Z") });
    await app.bundles.import(syntheticBundle({ cells: 40, sources: ["a1b2c3"], runs: 2, seed: 5 }));
    const clean = { bundleGenerations: 0, brokenHeads: 0, lapSamples: 0 };
    assert.deepEqual(await leftoversOf(kv), clean);
    const head = (await getBundleHead(kv, "crash-test-ring"))!;
    await kv.set(["bundle_chunk", "crash-test-ring", head.generation + 5, 0], new Uint8Array(3));
    await kv.set(["bundle_pending", "crash-test-ring", head.generation + 6], "x");
    await kv.set(["lap_samples", 77, 0], new Uint8Array(3));
    assert.deepEqual(await leftoversOf(kv), {
      bundleGenerations: 2,
      brokenHeads: 0,
      lapSamples: 1,
    });
    // What a restart does: the sweeps clear all three.
    await createApp({ kv });
    assert.deepEqual(await leftoversOf(kv), clean);
    await kv.set(["bundle_chunk", "crash-test-ring", head.generation, head.chunks.chunks], "extra");
    assert.equal((await leftoversOf(kv)).brokenHeads, 1);
  } finally {
    kv.close();
  }
});
