import { strict as assert } from "node:assert";
import { join } from "node:path";
import { nextId, nextIds } from "../../src/storage/ids.ts";

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

Deno.test("nextId: 300 concurrent allocations in one process get 1..300, each once", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const ids = await Promise.all(range(300).map(() => nextId(kv, "lap")));
    assert.deepEqual([...ids].sort((a, b) => a - b), range(300));
    // Kinds count separately.
    assert.equal(await nextId(kv, "session"), 1);
  } finally {
    kv.close();
  }
});

Deno.test("nextId: two handles on one store (as two processes) never hand out the same id", async () => {
  const dir = await Deno.makeTempDir();
  const a = await Deno.openKv(join(dir, "kv.sqlite3"));
  const b = await Deno.openKv(join(dir, "kv.sqlite3"));
  try {
    const ids = await Promise.all(
      range(120).map((i) => nextId(i % 2 ? a : b, "bundle_generation")),
    );
    assert.deepEqual([...ids].sort((x, y) => x - y), range(120));
  } finally {
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("nextIds: a block is consecutive and never overlaps single ids taken around it", async () => {
  using kv = await Deno.openKv(":memory:");
  const [a, block, b] = await Promise.all([
    nextId(kv, "lap"),
    nextIds(kv, "lap", 50),
    nextId(kv, "lap"),
  ]);
  assert.equal(a, 1);
  assert.deepEqual(block, range(50).map((i) => i + 1));
  assert.equal(b, 52);
});
