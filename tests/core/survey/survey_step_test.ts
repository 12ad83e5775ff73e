import { strict as assert } from "node:assert";
import { parseCapture } from "../../../src/core/gt7/capture.ts";
import { decodeFrame } from "../../../src/core/gt7/decode.ts";
import { SurveyEngine } from "../../../src/core/survey/survey_step.ts";
import { noFixtures, readGzFixture } from "../../_fixtures.ts";
import { straight } from "./_frames.ts";

Deno.test("straddling lays one point per 2 m half a track width to that side", () => {
  // Heading +x: the car's left is -z, so with tw 1.6 the left border is at z = -0.8.
  const left = new SurveyEngine(1.6);
  for (const f of straight(120, 12, () => "GTGT")) left.step(f); // 24 m
  const cells = left.evidence.snapshot();
  assert.equal(left.counters.straddle, 12);
  assert.equal(cells.length, 12);
  assert.ok(cells.every((c) => c.side === "L" && c.z === -0.8 && c.kinds === 16));
  assert.deepEqual(cells.slice(0, 3).map((c) => c.x), [0, 2, 4]);
  const right = new SurveyEngine(1.6);
  for (const f of straight(120, 12, () => "TGTG")) right.step(f);
  assert.ok(right.evidence.snapshot().every((c) => c.side === "R" && c.z === 0.8));
});

Deno.test("a surface transition lays auto points at the changed wheels' contacts", () => {
  const engine = new SurveyEngine(1.6);
  // FL goes onto the kerb at tick 10 (x = 2 m), RL follows at tick 23.
  for (
    const f of straight(30, 12, (i) => (i >= 10 ? "C" : "T") + "T" + (i >= 23 ? "C" : "T") + "T")
  ) {
    engine.step(f);
  }
  const cells = engine.evidence.snapshot();
  assert.equal(engine.counters.transitions, 2);
  assert.equal(engine.counters.auto, 2);
  // FL at x 2 + 1.3 (wb / 2 ahead); RL at 4.6 - 1.3, the same metre, so no second cell.
  // From tick 23 both left wheels are off: a straddle point at the car, x 4.6.
  assert.deepEqual(cells.map((c) => [c.side, c.x, c.z, c.kinds]), [
    ["L", 3.3, -0.8, 8],
    ["L", 4.6, -0.8, 16],
  ]);
  // Wheels of both sides changing at once say nothing about one border.
  const both = new SurveyEngine(1.6);
  for (const f of straight(30, 12, (i) => (i >= 10 ? "CC" : "TT") + "TT")) both.step(f);
  assert.equal(both.counters.auto, 0);
});

Deno.test("one vote per metre per run: passing the same metre again lays nothing new", () => {
  const engine = new SurveyEngine(1.6);
  for (const f of straight(120, 12, () => "GTGT")) engine.step(f);
  const before = engine.evidence.size;
  const changes = engine.changes;
  for (const f of straight(120, 12, () => "GTGT", { packet0: 500 })) engine.step(f);
  assert.equal(engine.evidence.size, before);
  assert.equal(engine.changes, changes);
});

Deno.test("an armed mark suspends straddle tracing and lays its kind; manual and inferred share a cell", () => {
  const engine = new SurveyEngine(1.6);
  engine.arm({ side: "R", kind: "wall" });
  for (const f of straight(60, 12, () => "GTGT")) engine.step(f); // straddling L, but marking R
  assert.equal(engine.counters.straddle, 0);
  assert.equal(engine.counters.manual, 6);
  assert.ok(
    engine.evidence.snapshot().every((c) => c.side === "R" && c.z === 0.8 && c.kinds === 1),
  );
  engine.arm(null);
  for (const f of straight(60, 12, () => "TGTG", { x0: 0, packet0: 100 })) engine.step(f);
  // The straddle now votes on the same metres the wall mark laid: both kinds, one cell each.
  const cells = engine.evidence.snapshot();
  assert.equal(cells.length, 6);
  assert.ok(cells.every((c) => c.kinds === (1 | 16)));
});

Deno.test("paused frames and frames without surface data add nothing", () => {
  const engine = new SurveyEngine(1.6);
  for (const f of straight(60, 12, () => "GTGT")) engine.step({ ...f, flags: 2 });
  for (const f of straight(60, 12, () => "GTGT")) engine.step({ ...f, surface: null });
  assert.equal(engine.counters.frames, 120);
  assert.equal(engine.counters.used, 0);
  assert.equal(engine.evidence.size, 0);
});

Deno.test({
  name: "the Spa capture lays auto cells at its surface transitions",
  ignore: noFixtures,
  fn() {
    const capture = parseCapture(readGzFixture("gt7/spa-full-lap.C.gt7.gz"));
    const engine = new SurveyEngine(1.6);
    let kerbTicks = 0;
    for (const p of capture.packets) {
      const f = decodeFrame(p);
      for (const ch of f.surface!.surface) if (ch === "C") kerbTicks++;
      engine.step(f);
    }
    const cells = engine.evidence.snapshot();
    const auto = cells.filter((c) => (c.kinds & 8) !== 0);
    const bySide = {
      L: auto.filter((c) => c.side === "L").length,
      R: auto.filter((c) => c.side === "R").length,
    };
    console.log(
      `spa: ${kerbTicks} kerb wheel-ticks, ${engine.counters.transitions} transitions, ` +
        `${engine.counters.auto} auto points in ${auto.length} auto cells (L ${bySide.L}, R ${bySide.R}), ` +
        `${cells.length} cells in all, tw ${
          engine.width.tw_m.toFixed(3)
        } m (${engine.width.source})`,
    );
    assert.equal(kerbTicks, 2246);
    assert.equal(capture.packets.length, 6914);
    assert.equal(engine.counters.transitions, 131);
    assert.equal(engine.counters.auto, 128);
    assert.equal(auto.length, 95);
    assert.deepEqual(bySide, { L: 41, R: 54 });
    assert.equal(engine.width.source, "cornering");
    // One rollover (1 -> 2) at the last packet.
    assert.equal(engine.crossings.length, 1);
    assert.equal(engine.crossings[0].lap, 2);
  },
});
