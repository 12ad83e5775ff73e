import { strict as assert } from "node:assert";
import { join } from "node:path";
import { DB_FILE, openStore, StoreUnavailable } from "../../src/storage/kv.ts";

const DENO = Deno.execPath();
const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const HOLDER = new URL("./_lock_holder.ts", import.meta.url).pathname;

/**
 * How long a step may take before the test calls it a hang: far beyond any
 * lock wait here, however busy the machine. Not a latency bound.
 */
const HANG_MS = 120_000;

/** Resolves or rejects as `p` does, or rejects once `HANG_MS` passed. */
async function unlessHung<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} hung for ${HANG_MS} ms`)), HANG_MS);
  });
  try {
    return await Promise.race([p, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** Starts a process that holds `dir`'s database locked; resolves once it does. */
async function lockStore(dir: string): Promise<Deno.ChildProcess> {
  // The file must exist and be a KV database before another process locks it.
  const kv = await openStore(dir);
  kv.close();
  const child = new Deno.Command(DENO, {
    args: ["run", "-A", HOLDER, join(dir, DB_FILE)],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  // The first line, however the pipe splits it.
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
  }
  assert.equal(text, "locked\n");
  reader.releaseLock();
  return child;
}

async function release(child: Deno.ChildProcess): Promise<void> {
  await child.stdin.close();
  await child.stdout.cancel().catch(() => {});
  await child.status;
}

Deno.test({
  name: "openStore reports a store locked by another process instead of hanging",
  // The abandoned open finishes only after the holder lets go, inside this test.
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await Deno.makeTempDir();
  const holder = await lockStore(dir);
  try {
    // Without the bounded wait the open would never settle: the holder keeps the lock.
    await assert.rejects(
      () => unlessHung(openStore(dir, { lockWaitMs: 300 }), "openStore on a locked store"),
      (err: unknown) => {
        assert.ok(err instanceof StoreUnavailable, String(err));
        assert.match(err.message, /is locked by another process/);
        assert.ok(err.message.includes(join(dir, DB_FILE)));
        return true;
      },
    );
  } finally {
    await release(holder);
  }
  // Once the other process lets go, the same directory opens normally (the wait allowed here
  // only has to outlast a busy machine, and the abandoned open finishing meanwhile).
  const kv = await openStore(dir, { lockWaitMs: HANG_MS });
  assert.notEqual((await kv.get(["meta", "opened_at"])).value, null);
  kv.close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("serve exits once with a clear message when the store is locked", async () => {
  const dir = await Deno.makeTempDir();
  const holder = await lockStore(dir);
  try {
    const out = await new Deno.Command(DENO, {
      args: ["run", "-A", MAIN, "serve", "--data", dir, "--port", "0", "--udp-port", "0"],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      // A serve that waited forever is killed, and fails the exit code check below.
      signal: AbortSignal.timeout(HANG_MS),
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 1, stderr);
    assert.match(
      stderr,
      /^sim-datalogger: the data store .* is locked by another process; stop it or pass a different --data directory\n$/,
    );
  } finally {
    await release(holder);
  }
  await Deno.remove(dir, { recursive: true });
});
