/**
 * The survey keeper holds one save per run (the newest), in memory and the
 * spill, within its bounds: past them the run refused first goes first,
 * counted and logged, never silent.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import type { RunCell } from "../../src/core/survey/run_evidence.ts";
import { type RunSnapshot, SurveyKeeper } from "../../src/app/survey/survey_keeper.ts";
import { fileSurveySpill } from "../../src/storage/survey_spill.ts";

const cell = (x: number): RunCell => ({
  x,
  z: 0,
  y: 0,
  hx: 1,
  hz: 0,
  side: "L",
  tw: 1.6,
  kinds: 1,
});
const run = (label: string, cells: number, countRun = false): RunSnapshot => ({
  circuit: { label, slug: label.toLowerCase(), ordinal: 1 },
  cells: Array.from({ length: cells }, (_, i) => cell(i * 10)),
  crossings: [],
  reason: countRun ? "stop" : "autosave",
  countRun,
});
const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

Deno.test("a run's newer save replaces its older one; past the run bound the run refused first is dropped and counted", async () => {
  const base = await Deno.makeTempDir();
  const dir = join(base, "spill");
  try {
    const errors: string[] = [];
    const keeper = new SurveyKeeper(fileSurveySpill(dir), {
      warn() {},
      error: (m) => errors.push(m),
    }, { runs: 2 });
    let changes = 0;
    keeper.onChange = () => changes++;
    keeper.keep("a", run("Alpha", 3));
    keeper.keep("a", run("Alpha", 5, true));
    assert.deepEqual(names(dir), ["survey-a.v8"]);
    assert.equal(fileSurveySpill(dir).read("a").cells.length, 5);
    keeper.keep("b", run("Beta", 2));
    keeper.keep("c", run("Gamma", 4));
    assert.deepEqual(keeper.entries().map((k) => k.id), ["b", "c"]);
    assert.deepEqual(names(dir), ["survey-b.v8", "survey-c.v8"]);
    assert.deepEqual(keeper.counts(), { waiting: 2, dropped: 1 });
    assert.deepEqual(errors, [
      'a survey save waiting for the store was lost: a run of 5 cells on "Alpha", ' +
      "past the bound of 2 runs (the oldest goes first)",
    ]);
    assert.equal(changes, 4);

    // A later start takes them back in their order, then each stored one leaves the spill.
    const again = new SurveyKeeper(fileSurveySpill(dir), { warn() {}, error() {} });
    assert.equal(again.recover(), 2);
    assert.deepEqual(again.entries().map((k) => [k.id, k.run.circuit.label, k.run.cells.length]), [
      ["b", "Beta", 2],
      ["c", "Gamma", 4],
    ]);
    again.done("b");
    again.done("c");
    assert.throws(() => Deno.statSync(dir), Deno.errors.NotFound);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("past the spill's byte bound the oldest run's file goes first; the run stays in memory and dies with the process", async () => {
  const base = await Deno.makeTempDir();
  const dir = join(base, "spill");
  try {
    const spill = fileSurveySpill(dir);
    const one = spill.write({ id: "x", seq: 1, ...run("X", 10) });
    spill.remove("x");
    const keeper = new SurveyKeeper(spill, { warn() {}, error() {} }, {
      spillBytes: one + one / 2,
    });
    keeper.keep("a", run("Alpha", 10));
    keeper.keep("b", run("Beta", 10));
    assert.deepEqual(names(dir), ["survey-b.v8"]);
    assert.deepEqual(keeper.counts(), { waiting: 2, dropped: 0 });
    assert.deepEqual(keeper.releaseMemoryOnly().map((k) => k.id), ["a"]);
    assert.deepEqual(keeper.entries().map((k) => k.id), ["b"]);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
