/**
 * The survey's spill shares the laps' folder and its rules: this user's
 * alone (0700), a file per run replaced whole by the run's newer save, and
 * no half-written file ever trusted. Lap files and survey files in the one
 * folder never see each other.
 */
import { strict as assert } from "node:assert";
import { dirname, join } from "node:path";
import { fileSpill, spillDirFor } from "../../src/storage/spill.ts";
import type { RunCell } from "../../src/core/survey/run_evidence.ts";
import { fileSurveySpill, type SpilledSurvey } from "../../src/storage/survey_spill.ts";
import { SPILLED_LAP } from "./_spilled_lap.ts";

const ID = "0b6c3a52-7d7e-4f4a-9d55-2b1f0a6e8c11";
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
const SAVE = {
  id: ID,
  seq: 1,
  circuit: { label: "Ring", slug: "ring", ordinal: 1 },
  cells: [cell(0), cell(10)],
  crossings: [],
  reason: "stop",
  countRun: true,
} as unknown as SpilledSurvey;

Deno.test("a survey save is spilled in its own file beside the laps, 0700, replaced whole by the run's newer save", async () => {
  const base = await Deno.makeTempDir();
  try {
    const dir = spillDirFor("/data/store", base);
    const surveys = fileSurveySpill(dir);
    const laps = fileSpill(dir);
    assert.deepEqual(surveys.list(), []);
    const first = surveys.write(SAVE);
    laps.write(SPILLED_LAP);
    assert.equal(Deno.statSync(dirname(dir)).mode! & 0o777, 0o700);
    assert.equal(Deno.statSync(dir).mode! & 0o777, 0o700);
    assert.deepEqual(surveys.list(), [{ id: ID, bytes: first }]);
    assert.deepEqual(laps.list().map((e) => e.seq), [1]);

    const newer = { ...SAVE, cells: [cell(0), cell(10), cell(20)], reason: "autosave" };
    const bytes = surveys.write(newer);
    assert.deepEqual(surveys.list(), [{ id: ID, bytes }]);
    assert.deepEqual(surveys.read(ID), newer);
    assert.deepEqual(
      [...Deno.readDirSync(dir)].map((e) => e.name).sort(),
      ["lap-000000000001.v8", `survey-${ID}.v8`],
    );

    // A save cut short by a kill is removed at the next look, never read.
    await Deno.writeFile(
      join(dir, `survey-${ID.replace("0b", "0c")}.v8.partial`),
      new Uint8Array(9),
    );
    assert.deepEqual(surveys.list(), [{ id: ID, bytes }]);
    assert.deepEqual(laps.list().map((e) => e.seq), [1]);

    surveys.remove(ID);
    assert.deepEqual(surveys.list(), []);
    laps.remove(1);
    assert.equal(Deno.statSync(dirname(dir)).isDirectory, true);
    assert.throws(() => Deno.statSync(dir), Deno.errors.NotFound);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("a survey spill folder other users can write to is neither read nor written; a bad run id is refused", async () => {
  const base = await Deno.makeTempDir();
  try {
    const dir = spillDirFor("/data/store", base);
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await Deno.chmod(dirname(dir), 0o700);
    await Deno.chmod(dir, 0o777);
    const surveys = fileSurveySpill(dir);
    const rule = new RegExp(
      `^spill folder ${dir} is writable by other users \\(mode 777\\); it must be this user's alone$`,
    );
    assert.throws(() => surveys.list(), { message: rule });
    assert.throws(() => surveys.write(SAVE), { message: rule });
    assert.deepEqual([...Deno.readDirSync(dir)], []);
    await Deno.chmod(dir, 0o700);
    assert.throws(() => surveys.write({ ...SAVE, id: "../x" }), {
      message: 'survey run id "../x" must be letters, digits and dashes',
    });
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
