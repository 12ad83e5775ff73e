/**
 * A process killed (SIGKILL) in the middle of importing a 50,000-edge bundle
 * leaves the previous bundle intact and readable after a restart.
 *
 * A real child process imports the bundle into a store on disk that already
 * holds an older, different bundle of the same circuit; the parent kills it
 * at spread-out moments of the import, reopens the store and checks that
 * the bundle reads back as either the old document or the fully merged one,
 * never anything in between, and that the start-up sweep clears whatever the
 * killed write left behind.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { createApp } from "../../src/app/context.ts";
import { importBundle } from "../../src/app/bundles.ts";
import { merge } from "../../src/core/bundle/merge.ts";
import { serialiseBundle } from "../../src/core/bundle/serialise.ts";
import { upgradeImported } from "../../src/core/bundle/upgrade.ts";
import { validateBundle } from "../../src/core/bundle/validate.ts";
import { readBundle, sweepOrphanBundleChunks } from "../../src/storage/bundles.ts";
import { DB_FILE, openStore } from "../../src/storage/kv.ts";
import { syntheticBundle } from "./bundle_crash_child.ts";

const CHILD = new URL("./bundle_crash_child.ts", import.meta.url).pathname;
const SLUG = "crash-test-ring";
const NOW = "2026-11-21T12:00:00.000Z";
const TRIALS = 12;

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isFile) await Deno.copyFile(join(from, entry.name), join(to, entry.name));
  }
}

/** Chunk counts per generation stored under the circuit. */
async function chunkGenerations(kv: Deno.Kv): Promise<Map<number, number>> {
  const gens = new Map<number, number>();
  for await (const e of kv.list({ prefix: ["bundle_chunk", SLUG] })) {
    const gen = e.key[2] as number;
    gens.set(gen, (gens.get(gen) ?? 0) + 1);
  }
  return gens;
}

/** A running child: the time it said `ready`, and its output so far. */
interface Child {
  process: Deno.ChildProcess;
  started: number;
  output: () => string;
  /** Resolves when a line `line` has been printed (false when output ended first). */
  printed: (line: string) => Promise<boolean>;
  /** Resolves with all standard output once the process has closed it. */
  closed: Promise<string>;
  stderr: Promise<string>;
}

/** Starts the child on `dir`; resolves once it has read the file and begun the import. */
async function startChild(dir: string, file: string): Promise<Child> {
  const process = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CHILD, dir, file, NOW],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = process.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  let ended = false;
  const waiters: (() => void)[] = [];
  const closed = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      out += value;
      waiters.splice(0).forEach((w) => w());
    }
    ended = true;
    waiters.splice(0).forEach((w) => w());
    return out;
  })();
  const printed = async (line: string): Promise<boolean> => {
    while (!out.split("\n").includes(line)) {
      if (ended) return false;
      await new Promise<void>((r) => waiters.push(r));
    }
    return true;
  };
  const stderr = new Response(process.stderr).text();
  if (!await printed("ready")) throw new Error(`child ended before starting: ${await stderr}`);
  return { process, started: performance.now(), output: () => out, printed, closed, stderr };
}

type Outcome = "old" | "merged";

/** Reopens the store as a restart would and checks what it holds. */
async function inspect(dir: string, old: string, merged: string): Promise<{
  outcome: Outcome;
  orphans: number;
}> {
  const kv = await Deno.openKv(join(dir, DB_FILE));
  try {
    const stored = await readBundle(kv, SLUG);
    assert.ok(stored, "the bundle vanished");
    const text = serialiseBundle(stored.doc);
    assert.ok(text === old || text === merged, "the bundle is neither the old nor the merged one");
    const gens = await chunkGenerations(kv);
    // The head names a whole generation; anything else is an unreferenced leftover.
    assert.equal(gens.get(stored.head.generation), stored.head.chunks.chunks);
    const leftovers = new Set(gens.keys());
    for await (const e of kv.list({ prefix: ["bundle_pending", SLUG] })) {
      leftovers.add(e.key[2] as number);
    }
    leftovers.delete(stored.head.generation);
    const swept = await sweepOrphanBundleChunks(kv);
    assert.equal(swept, leftovers.size);
    assert.deepEqual(await Array.fromAsync(kv.list({ prefix: ["bundle_pending"] })), []);
    assert.deepEqual(
      await chunkGenerations(kv),
      new Map([[stored.head.generation, stored.head.chunks.chunks]]),
    );
    assert.equal(serialiseBundle((await readBundle(kv, SLUG))!.doc), text);
    return { outcome: text === old ? "old" : "merged", orphans: swept };
  } finally {
    kv.close();
  }
}

Deno.test({
  name: "SIGKILL during a 50,000-edge import leaves the old bundle or the merged one, never a mix",
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "bundle-crash-" });
    try {
      const pristine = join(root, "pristine");
      const oldRaw = syntheticBundle({
        cells: 20_000,
        sources: ["a1b2c3d4e5f6"],
        runs: 5,
        seed: 1,
      });
      const incomingRaw = syntheticBundle({
        cells: 50_000,
        sources: ["0badc0ffee01", "f0e1d2c3b4a5", "a1b2c3d4e5f6"],
        runs: 9,
        seed: 2,
        dx: 0.2,
      });
      const file = join(root, "incoming.json");
      await Deno.writeTextFile(file, JSON.stringify(incomingRaw));

      const kv = await openStore(pristine);
      await importBundle(
        await createApp({ kv, now: () => new Date("2026-01-01T00:00:00Z") }),
        oldRaw,
      );
      const oldDoc = (await readBundle(kv, SLUG))!.doc;
      kv.close();
      const old = serialiseBundle(oldDoc);
      const incoming = upgradeImported(validateBundle(incomingRaw));
      const merged = serialiseBundle(merge(oldDoc, incoming, { now: NOW }).merged);
      assert.notEqual(old, merged);

      // An uninterrupted run: the merged result, how long an import takes, how many commits.
      await copyDir(pristine, join(root, "calibration"));
      const calibration = await startChild(join(root, "calibration"), file);
      const status = await calibration.process.status;
      const duration = performance.now() - calibration.started;
      assert.equal(status.code, 0, await calibration.stderr);
      const log = await calibration.closed;
      assert.match(log, /done \d+/);
      const commits = log.split("\n").filter((l) => l.startsWith("commit ")).length;
      assert.ok(commits >= 5, `only ${commits} commits`);
      assert.deepEqual(await inspect(join(root, "calibration"), old, merged), {
        outcome: "merged",
        orphans: 0,
      });

      // Even trials kill at a moment spread over the whole import (stratified, a little
      // past its end); odd ones just after one of the import's commits, plus 0-3 ms.
      const outcomes: string[] = [];
      const timed = Math.ceil(TRIALS / 2);
      // Consecutive commits from a random start, so the odd trials cover the write's gaps.
      const rotation = Math.floor(Math.random() * commits);
      for (let i = 0; i < TRIALS; i++) {
        const dir = join(root, `trial-${i}`);
        await copyDir(pristine, dir);
        const run = await startChild(dir, file);
        let when: string;
        if (i % 2 === 0) {
          const delay = (duration * 1.05 * (i / 2 + Math.random())) / timed;
          await new Promise((r) =>
            setTimeout(r, Math.max(0, delay - (performance.now() - run.started)))
          );
          when = `${Math.round(delay)} ms`;
        } else {
          const k = 1 + (rotation + (i - 1) / 2) % commits;
          await run.printed(`commit ${k}`);
          await new Promise((r) => setTimeout(r, Math.random() * 3));
          when = `commit ${k}`;
        }
        try {
          run.process.kill("SIGKILL");
        } catch {
          // Already exited: the import finished before the kill.
        }
        const exit = await run.process.status;
        await run.closed;
        await run.stderr;
        const seen = await inspect(dir, old, merged);
        outcomes.push(
          `${when}: ${seen.outcome}${seen.orphans ? ` +${seen.orphans} orphan generation` : ""}` +
            `${exit.signal === "SIGKILL" ? "" : " (finished)"}`,
        );
        await Deno.remove(dir, { recursive: true });
      }
      console.log(
        `import takes ${Math.round(duration)} ms and ${commits} commits; killed at:\n  ` +
          outcomes.join("\n  "),
      );
      assert.match(outcomes[0], /: old/, "a kill right after the start must leave the old bundle");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
