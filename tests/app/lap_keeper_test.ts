import { strict as assert } from "node:assert";
import { join } from "node:path";
import { LapKeeper, lapMemory } from "../../src/app/store/lap_keeper.ts";
import type { NewLap } from "../../src/storage/laps.ts";
import { fileSpill, type SpillPort } from "../../src/storage/spill.ts";

/** A lap of `n` samples numbered `tag` (only what the keeper looks at is filled in). */
function lap(tag: number, n = 1000): NewLap {
  return {
    number: tag,
    samples: { dist: Array.from({ length: n }, (_, i) => i + tag) },
  } as unknown as NewLap;
}

const ONE = lapMemory(lap(0));

/** A spill in a new folder whose writes fail while `failing` is set. */
function spillIn(dir: string): SpillPort & { failing: boolean } {
  const real = fileSpill(dir);
  const spill = {
    ...real,
    failing: false,
    write(l: Parameters<SpillPort["write"]>[0]) {
      if (spill.failing) throw new Error("No space left on device (os error 28)");
      return real.write(l);
    },
  };
  return spill;
}

function keepAll(keeper: LapKeeper, tags: number[]): void {
  for (const t of tags) {
    keeper.keep({ segment: "run:1", session_id: 7, kind: "live", lap: lap(t) });
  }
}

Deno.test("past the memory bound a spilled lap leaves memory and is read back whole from the spill", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const spill = spillIn(join(dir, "s"));
    const keeper = new LapKeeper(spill, { warn() {}, error() {} }, { memoryBytes: 2 * ONE });
    keepAll(keeper, [1, 2, 3]);
    assert.deepEqual(keeper.counts(), {
      waiting: 3,
      dropped: 0,
      spill: join(dir, "s"),
      spill_error: null,
    });
    const first = keeper.first()!;
    assert.equal(first.lap, null);
    assert.deepEqual(keeper.lapOf(first), lap(1));
    keeper.done(first);
    assert.deepEqual(spill.list().map((e) => e.seq), [2, 3]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("with the spill unwritable, past the memory bound the oldest lap is dropped, counted and logged", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const spill = spillIn(join(dir, "s"));
    spill.failing = true;
    const errors: string[] = [];
    const keeper = new LapKeeper(spill, { warn() {}, error: (m) => errors.push(m) }, {
      memoryBytes: 2 * ONE,
    });
    keepAll(keeper, [1, 2, 3, 4]);
    assert.deepEqual(keeper.counts(), {
      waiting: 2,
      dropped: 2,
      spill: join(dir, "s"),
      spill_error: "No space left on device (os error 28)",
    });
    assert.deepEqual(keeper.lapOf(keeper.first()!), lap(3));
    assert.deepEqual(errors, [
      "a lap waiting for the store was lost: past the memory bound with the spill full or unwritable, the oldest waiting lap goes first",
      "a lap waiting for the store was lost: past the memory bound with the spill full or unwritable, the oldest waiting lap goes first",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("past the spill bound the oldest lap in neither memory nor spill is dropped first", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const spill = spillIn(join(dir, "s"));
    const keeper = new LapKeeper(spill, { warn() {}, error() {} }, {
      memoryBytes: 1 * ONE,
      spillBytes: 1,
    });
    // Spill bound of one byte: each new lap pushes the older ones out of the spill; memory
    // holds one lap, so the laps older than the newest have nowhere left and go, oldest first.
    keepAll(keeper, [1, 2, 3]);
    const counts = keeper.counts();
    assert.equal(counts.waiting, 1);
    assert.equal(counts.dropped, 2);
    assert.deepEqual(keeper.lapOf(keeper.first()!), lap(3));
    assert.deepEqual(spill.list(), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a restart takes the spilled laps in order; a half-written file is removed, an unreadable one counted lost", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const spill = spillIn(join(dir, "s"));
    keepAll(new LapKeeper(spill, { warn() {}, error() {} }), [1, 2, 3]);
    Deno.writeFileSync(join(dir, "s", "lap-000000000009.v8.partial"), new Uint8Array([1, 2]));
    Deno.writeFileSync(join(dir, "s", "lap-000000000002.v8"), new Uint8Array([0xff, 0x0f]));
    const errors: string[] = [];
    const keeper = new LapKeeper(spill, { warn() {}, error: (m) => errors.push(m) });
    assert.equal(keeper.recover(), 2);
    assert.equal(keeper.counts().dropped, 1);
    assert.equal(errors.length, 1);
    assert.match(errors[0], /^a spilled lap in .* cannot be read and is lost/);
    assert.deepEqual(keeper.lapOf(keeper.first()!), lap(1));
    assert.deepEqual([...Deno.readDirSync(join(dir, "s"))].map((e) => e.name).sort(), [
      "lap-000000000001.v8",
      "lap-000000000003.v8",
    ]);
    // New laps go after the recovered ones.
    keepAll(keeper, [4]);
    assert.deepEqual(spill.list().map((e) => e.seq), [1, 3, 4]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
