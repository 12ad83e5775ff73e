/**
 * closeStore: a clean stop leaves the database file and no write-ahead log,
 * with every value intact on reopening.
 */
import { strict as assert } from "node:assert";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  checkpointStore,
  closeStore,
  DB_FILE,
  openStore,
  storePath,
} from "../../src/storage/kv.ts";

/** Values of 60 kB: 80 of them make a log of several MB. */
const VALUE_BYTES = 60_000;
const VALUES = 80;

function value(i: number): Uint8Array {
  return new Uint8Array(VALUE_BYTES).map((_, k) => (i * 31 + k) % 251);
}

async function writeValues(kv: Deno.Kv): Promise<void> {
  for (let i = 0; i < VALUES; i++) await kv.set(["test", i], value(i));
}

async function assertValuesIntact(dir: string): Promise<void> {
  const kv = await openStore(dir);
  try {
    const entries = await Array.fromAsync(kv.list<Uint8Array>({ prefix: ["test"] }));
    assert.equal(entries.length, VALUES);
    for (const [i, entry] of entries.entries()) {
      assert.deepEqual(entry.key, ["test", i]);
      assert.deepEqual(entry.value, value(i));
    }
  } finally {
    closeStore(kv);
  }
}

function walBytes(dir: string): number {
  const wal = join(dir, `${DB_FILE}-wal`);
  return existsSync(wal) ? statSync(wal).size : 0;
}

Deno.test("storePath is the database file for a store on disk, null in memory", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const kv = await openStore(dir);
    assert.equal(storePath(kv), join(dir, DB_FILE));
    closeStore(kv);
    const memory = await openStore(":memory:");
    assert.equal(storePath(memory), null);
    assert.deepEqual(closeStore(memory), { path: null, wal_bytes: 0, problem: null });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("closing a written store leaves no write-ahead log, and its data intact", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const kv = await openStore(dir);
    await writeValues(kv);
    assert.ok(walBytes(dir) > VALUE_BYTES, `a log of ${walBytes(dir)} bytes while open`);
    const closed = closeStore(kv);
    assert.deepEqual(closed, { path: join(dir, DB_FILE), wal_bytes: 0, problem: null });
    assert.equal(walBytes(dir), 0);
    await assertValuesIntact(dir);
    assert.equal(walBytes(dir), 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a log kv.close() could not fold in is folded in by checkpointStore", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, DB_FILE);
  try {
    const kv = await openStore(dir);
    const reader = new DatabaseSync(path);
    try {
      await writeValues(kv);
      // A reader holding a snapshot keeps SQLite from checkpointing as the store closes.
      reader.exec("BEGIN");
      reader.prepare("SELECT count(*) AS n FROM sqlite_master").get();
      kv.close();
      reader.exec("COMMIT");
      const left = walBytes(dir);
      assert.ok(left > VALUE_BYTES, `kv.close() alone left ${left} bytes of log`);

      assert.equal(checkpointStore(path), null);
      assert.equal(walBytes(dir), 0);
    } finally {
      reader.close();
    }
    await assertValuesIntact(dir);
    assert.equal(walBytes(dir), 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
