/**
 * A process killed (SIGKILL) in the middle of importing a bundle leaves the
 * previous bundle or the fully merged one, readable after a restart, and
 * the start-up sweep clears whatever the killed write left behind.
 *
 * Each trial is a real child process importing a bundle into a copy of a
 * store on disk that already holds an older, different bundle of the same
 * circuit. The child kills itself just before or after one of the import's
 * commits, or the parent kills it at a planned moment (see
 * _crash_harness.ts); the test reopens the store through createApp (which
 * sweeps) and checks that the bundle re-validates and serialises to exactly
 * the old document or the merged one, that it is the merged one only if
 * the import had got as far as a commit and must be once the head flip was
 * seen to resolve (exactly so at a gate), and that no chunk, pending marker
 * or lap sample is left unreferenced.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { createApp } from "../../src/app/create_app.ts";
import { merge } from "../_merge_objects.ts";
import { serialiseBundle } from "../../src/core/bundle/serialise.ts";
import { upgradeImported } from "../../src/core/bundle/upgrade.ts";
import { validateBundle } from "../../src/core/bundle/validate.ts";
import { listBundleHeads, readBundle, sweepOrphanBundleChunks } from "../../src/storage/bundles.ts";
import { openStore } from "../../src/storage/kv.ts";
import { syntheticBundle, type SyntheticBundleOptions } from "../_bundles.ts";
import {
  commitsOf,
  copyStore,
  CrashChild,
  crashSeed,
  type Finding,
  leftoversOf,
  planGates,
  planKills,
  runTrials,
  timings,
  WriteClock,
} from "./_crash_harness.ts";

const CHILD = new URL("./_crash_bundle_child.ts", import.meta.url).pathname;
const SLUG = "crash-test-ring";
const NOW = "2026-11-21T12:00:00.000Z";
const SEED = crashSeed(0xb1d1e);

/** One campaign: the stored bundle, the imported one, how many trials. */
interface Campaign {
  old: SyntheticBundleOptions;
  incoming: SyntheticBundleOptions;
  /** Timed trials. */
  trials: number;
  /** Gated trials: every gate of the import, or a sample of this many. */
  gates?: number;
  seed: number;
}

/** Reopens the store as a restart does and checks what it holds: 0 old, 1 merged. */
async function restart(dir: string, docs: readonly string[]): Promise<Finding> {
  const kv = await openStore(dir);
  try {
    const found = await leftoversOf(kv);
    assert.equal(found.brokenHeads, 0, "a head names a generation that is not whole");
    assert.equal(found.lapSamples, 0);
    await createApp({ kv, now: () => new Date(NOW) });
    assert.deepEqual(await leftoversOf(kv), {
      bundleGenerations: 0,
      brokenHeads: 0,
      lapSamples: 0,
    });
    assert.equal(await sweepOrphanBundleChunks(kv), 0);
    assert.deepEqual((await listBundleHeads(kv)).map((h) => h.slug), [SLUG]);
    const stored = await readBundle(kv, SLUG);
    assert.ok(stored, "the bundle vanished");
    const text = serialiseBundle(stored.doc);
    const outcome = docs.indexOf(text);
    assert.ok(outcome >= 0, "the bundle is neither the old nor the merged one");
    assert.equal(stored.head.edges, stored.doc.edges.length);
    return {
      stored: outcome,
      held: outcome === 0 ? "old" : "merged",
      swept: found.bundleGenerations > 0,
    };
  } finally {
    kv.close();
  }
}

async function run(root: string, c: Campaign): Promise<string> {
  const started = performance.now();
  const pristine = join(root, "pristine");
  const oldRaw = syntheticBundle(c.old);
  const incomingRaw = syntheticBundle(c.incoming);
  const file = join(root, "incoming.json");
  await Deno.writeTextFile(file, JSON.stringify(incomingRaw));
  const kv = await openStore(pristine);
  await (await createApp({ kv, now: () => new Date("2026-01-01T00:00:00Z") })).bundles.import(
    oldRaw,
  );
  const oldDoc = (await readBundle(kv, SLUG))!.doc;
  kv.close();
  const incoming = upgradeImported(validateBundle(incomingRaw));
  const docs = [
    serialiseBundle(oldDoc),
    serialiseBundle(merge(oldDoc, incoming, { now: NOW }).merged),
  ];
  assert.notEqual(docs[0], docs[1]);

  // An uninterrupted run: the merged result, and when the import begins, first commits and ends.
  await copyStore(pristine, join(root, "calibration"));
  const calibration = await new CrashChild(CHILD, [join(root, "calibration"), file, NOW]).finish();
  assert.equal(calibration.code, 0, calibration.stderr);
  const timing = timings(calibration.lines, 1);
  const writes = commitsOf(calibration.lines, 1);
  const { commits, visibleAt } = writes[0];
  // Generation number, chunks, head flip, then the old generation's marker and its chunks.
  assert.ok(commits >= 5, `only ${commits} commits`);
  assert.equal(visibleAt, commits - 2, "the head flip is not the third commit from the end");
  assert.deepEqual(await restart(join(root, "calibration"), docs), {
    stored: 1,
    held: "merged",
    swept: false,
  });

  const clock = new WriteClock(timing);
  const gates = planGates(writes, c.gates, c.seed);
  const tally = await runTrials(
    {
      script: CHILD,
      args: (dir) => [dir, file, NOW],
      root,
      prepare: (dir) => copyStore(pristine, dir),
      restart: (dir) => restart(dir, docs),
    },
    writes,
    gates,
    planKills(c.trials, timing.length, c.seed),
    clock,
  );
  assert.equal(tally.gated, c.gates ?? 2 * commits);
  const t = timing[0];
  return `${c.incoming.cells} edges into ${c.old.cells}: import start to first commit ` +
    `${Math.round(t.write - t.begin)} ms, first commit to end ${Math.round(clock.span(1))} ms ` +
    `(median; ${commits} commits); ${tally.summary()}; ${
      Math.round(performance.now() - started)
    } ms`;
}

async function inTempDir(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "crash-bundle-" });
  try {
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const OLD_SOURCES = ["a1b2c3d4e5f6"];
const NEW_SOURCES = ["0badc0ffee01", "f0e1d2c3b4a5", "a1b2c3d4e5f6"];

Deno.test({
  name:
    "SIGKILL between any two commits of a bundle import and at 40 timed moments leaves the old bundle or the merged one",
  async fn() {
    await inTempDir(async (root) => {
      const line = await run(root, {
        old: { cells: 6_000, sources: OLD_SOURCES, runs: 5, seed: 1 },
        incoming: { cells: 16_000, sources: NEW_SOURCES, runs: 9, seed: 2, dx: 0.2 },
        // With the 10 gated kills (before and after each commit), 50 in all.
        trials: 40,
        seed: SEED,
      });
      console.log(`crash during import: ${line}`);
    });
  },
});

Deno.test({
  name: "SIGKILL during a 50,000-edge import leaves the old bundle or the merged one, never a mix",
  async fn() {
    await inTempDir(async (root) => {
      const line = await run(root, {
        old: { cells: 20_000, sources: OLD_SOURCES, runs: 5, seed: 1 },
        incoming: { cells: 50_000, sources: NEW_SOURCES, runs: 9, seed: 2, dx: 0.2 },
        trials: 4,
        // Of the gates before and after each of its commits (16): a sample, each a 2-3 s child.
        gates: 6,
        seed: SEED + 1,
      });
      console.log(`crash during the largest import: ${line}`);
    });
  },
});
