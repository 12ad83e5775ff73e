/**
 * The store's normal close paths: withStore (one-shot commands) and a
 * logger's close() (start, serve, demo). Each shuts the application down
 * before closing, and a clean stop leaves no write-ahead log, with every
 * value intact on reopening. GET /api/status tells the store's path and
 * sizes over real HTTP.
 */
import { strict as assert } from "node:assert";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { startLogger } from "../../src/cli/logger_process.ts";
import { withStore } from "../../src/cli/with_store.ts";
import type { TelemetrySource } from "../../src/app/live/telemetry_source.ts";
import { closeStore, DB_FILE, openStore } from "../../src/storage/kv.ts";

/** 80 values of 60 kB: a write-ahead log of several MB. */
const VALUES = 80;
const VALUE_BYTES = 60_000;

function value(i: number): Uint8Array {
  return new Uint8Array(VALUE_BYTES).map((_, k) => (i * 17 + k) % 253);
}

async function writeValues(kv: Deno.Kv): Promise<void> {
  for (let i = 0; i < VALUES; i++) await kv.set(["close_test", i], value(i));
}

async function assertValuesIntact(dir: string): Promise<void> {
  const kv = await openStore(dir);
  try {
    const entries = await Array.fromAsync(kv.list<Uint8Array>({ prefix: ["close_test"] }));
    assert.equal(entries.length, VALUES);
    for (const [i, entry] of entries.entries()) assert.deepEqual(entry.value, value(i));
  } finally {
    closeStore(kv);
  }
}

function size(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

/** A telemetry source that only counts its closes: the first thing app.shutdown() does. */
function countingSource(): TelemetrySource & { closes: number } {
  return {
    closes: 0,
    status() {
      throw new Error("status is not asked for here");
    },
    close() {
      this.closes++;
      return Promise.resolve();
    },
  };
}

Deno.test("withStore shuts the app down, then closes the store without a log left", async () => {
  const dir = await Deno.makeTempDir();
  const wal = join(dir, `${DB_FILE}-wal`);
  try {
    const source = countingSource();
    const walWhileOpen = await withStore(dir, async (app) => {
      assert.equal(app.storePath, join(dir, DB_FILE));
      app.attachTelemetry(source);
      await writeValues(app.kv);
      return size(wal);
    });
    assert.ok(walWhileOpen > VALUE_BYTES, `a log of ${walWhileOpen} bytes while open`);
    assert.equal(source.closes, 1);
    assert.equal(size(wal), 0);
    await assertValuesIntact(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withStore shuts the app down and closes the store when the command throws", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const source = countingSource();
    await assert.rejects(
      withStore(dir, async (app) => {
        app.attachTelemetry(source);
        await writeValues(app.kv);
        throw new Error("the command failed");
      }),
      /the command failed/,
    );
    assert.equal(source.closes, 1);
    assert.equal(size(join(dir, `${DB_FILE}-wal`)), 0);
    await assertValuesIntact(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

interface StatusBody {
  store: {
    path: string | null;
    data_bytes: number | null;
    wal_bytes: number | null;
    state: string;
    disk: string | null;
    free_bytes: number | null;
    laps_waiting: number;
    spill: string | null;
  };
}

/** The file part of `store` (its health is checked on its own). */
function files(store: StatusBody["store"]) {
  return { path: store.path, data_bytes: store.data_bytes, wal_bytes: store.wal_bytes };
}

Deno.test("a logger on disk reports its store in GET /api/status and stops without a log", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, DB_FILE);
  try {
    const logger = await startLogger({
      data: dir,
      host: "127.0.0.1",
      port: 0,
      console: null,
      consolePort: 33739,
      udpPort: 0,
      format: "C",
    });
    try {
      await writeValues(logger.app.kv);
      const res = await fetch(`${logger.http.url}/api/status`);
      assert.equal(res.status, 200);
      const body = await res.json() as StatusBody;
      // Nothing writes between the request and these reads: the logger is idle.
      assert.deepEqual(files(body.store), {
        path,
        data_bytes: statSync(path).size,
        wal_bytes: statSync(`${path}-wal`).size,
      });
      // The store's disk is measured, and its spill lives elsewhere (the OS temp directory).
      assert.equal(body.store.disk, dir);
      assert.ok(body.store.free_bytes! > 0);
      assert.equal(body.store.laps_waiting, 0);
      assert.ok(body.store.spill!.includes("sim-datalogger-spill"), body.store.spill!);
      assert.ok(body.store.wal_bytes! > VALUE_BYTES, `a log of ${body.store.wal_bytes} bytes`);
      assert.ok(body.store.data_bytes! > 0);
    } finally {
      await logger.close();
    }
    assert.equal(size(`${path}-wal`), 0);
    await assertValuesIntact(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a logger in memory reports a store without path or sizes", async () => {
  const logger = await startLogger({
    data: ":memory:",
    host: "127.0.0.1",
    port: 0,
    console: null,
    consolePort: 33739,
    udpPort: 0,
    format: "C",
  });
  try {
    const res = await fetch(`${logger.http.url}/api/status`);
    assert.equal(res.status, 200);
    const body = await res.json() as StatusBody;
    assert.deepEqual(files(body.store), { path: null, data_bytes: null, wal_bytes: null });
    assert.deepEqual(
      [body.store.state, body.store.disk, body.store.free_bytes, body.store.spill],
      ["ok", null, null, null],
    );
  } finally {
    await logger.close();
  }
});
