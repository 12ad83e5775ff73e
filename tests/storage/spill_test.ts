/**
 * The spill lives under the shared temporary directory by default, so its
 * folder must be this user's alone: a `sim-datalogger-spill` folder others
 * can write to (made beforehand by another user, say) could hold laps
 * planted for the next start to store, or links for a write to follow.
 */
import { strict as assert } from "node:assert";
import { dirname, join } from "node:path";
import { serialize } from "node:v8";
import { fileSpill, spillDirFor } from "../../src/storage/spill.ts";
import { SPILLED_LAP } from "./_spilled_lap.ts";

Deno.test("a spill folder other users can write to is neither read nor written", async () => {
  const base = await Deno.makeTempDir();
  try {
    const dir = spillDirFor("/data/store", base);
    const shared = dirname(dir);
    await Deno.mkdir(dir, { recursive: true });
    await Deno.chmod(shared, 0o777);
    await Deno.writeFile(join(dir, "lap-000000000001.v8"), serialize(SPILLED_LAP));
    const spill = fileSpill(dir);
    const rule = new RegExp(
      `^spill folder ${shared} is writable by other users \\(mode 777\\); ` +
        "it must be this user's alone$",
    );
    assert.throws(() => spill.list(), { message: rule });
    assert.throws(() => spill.write({ ...SPILLED_LAP, seq: 2 }), { message: rule });
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["lap-000000000001.v8"]);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("the spill's folders are made this user's alone, and a spill there works", async () => {
  const base = await Deno.makeTempDir();
  try {
    const dir = spillDirFor("/data/store", base);
    const spill = fileSpill(dir);
    assert.deepEqual(spill.list(), []);
    const bytes = spill.write(SPILLED_LAP);
    assert.equal(Deno.statSync(dirname(dir)).mode! & 0o777, 0o700);
    assert.equal(Deno.statSync(dir).mode! & 0o777, 0o700);
    assert.deepEqual(spill.list(), [{ seq: 1, bytes }]);
    assert.deepEqual(spill.read(1), SPILLED_LAP);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
