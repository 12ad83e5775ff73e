/**
 * A process killed (SIGKILL) while a survey autosaves leaves the circuit's
 * bundle exactly as one of the run's autosaves (or the run's start) left
 * it, readable after a restart, and the next run still gets a fresh ordinal.
 *
 * The store on disk already holds the circuit's bundle: another
 * installation's survey of its first lap, imported, and one earlier run of
 * this installation. Each trial is a real child process surveying the
 * synthetic survey drive over a copy of that store, its autosaves running
 * while frames stream in; the child kills itself just before or after one
 * of an autosave's commits, or the parent kills it at a planned moment of
 * one autosave (see _crash_harness.ts); the test reopens the store through createApp
 * (which sweeps) and compares the bundle with the sequence of documents
 * the autosaves produce when the same frames are fed into an application
 * in memory. The laps the live service recorded meanwhile must be whole
 * and equal to the reference's.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { type App, createApp } from "../../src/app/create_app.ts";
import { AUTOSAVE_FRAMES } from "../../src/app/survey/survey.ts";
import { serialiseBundle } from "../../src/core/bundle/serialise.ts";
import { slugify } from "../../src/core/bundle/slug.ts";
import { type BundleV4, KINDS } from "../../src/core/bundle/types.ts";
import type { Lap } from "../../src/core/laps/lap.ts";
import { SyntheticDrive } from "../../src/core/synthetic/drive.ts";
import { listBundleHeads, readBundle } from "../../src/storage/bundles.ts";
import { carWidthKey, getCarWidth } from "../../src/storage/car_widths.ts";
import { openStore } from "../../src/storage/kv.ts";
import { getLap, listLaps } from "../../src/storage/laps.ts";
import { listSessions } from "../../src/storage/sessions.ts";
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

const CHILD = new URL("./_crash_survey_child.ts", import.meta.url).pathname;
const NOW = "2026-11-21T12:00:00.000Z";
/** The survey drive: its out-lap and one lap along the left border, three autosaves. */
const DRIVE = { seed: 7, mode: "survey", laps: 1 } as const;
const TRACK = "Synthetic 7";
const SLUG = slugify(TRACK);
/** This installation's and another one's source ids. */
const OURS = "5e1f00000001";
const THEIRS = "c0ffee000001";
/** Frames of this installation's earlier run (the out-lap and the start of lap 1). */
const EARLIER_RUN_FRAMES = 3_000;
/** Frames of the other installation's survey (the out-lap and half of lap 1). */
const THEIR_FRAMES = 6_000;
/**
 * Timed kills, on top of the 30 gated ones (before and after each commit of
 * every autosave): 50 kills in all, and CI stays within its time.
 */
const TRIALS = 20;
const SEED = crashSeed(0x5a7e);

/** Makes a store's installation id `id`, before an application is created on it. */
async function setSourceId(kv: Deno.Kv, id: string): Promise<void> {
  await kv.set(["settings", "source_id"], { source_id: id, created_at: NOW });
}

/** Starts a survey of TRACK on `app` and feeds it the first `frames` frames of `drive`. */
async function survey(app: App, drive: SyntheticDrive, frames: number): Promise<void> {
  await app.survey.start({ track: TRACK });
  let fed = 0;
  for (const frame of drive.frames()) {
    if (fed++ === frames) break;
    app.live.ingest(frame);
  }
  await app.survey.stop();
  await app.live.flush();
}

/** The store every trial starts from: the circuit surveyed by them and once by us. */
async function makePristine(dir: string, drive: SyntheticDrive): Promise<void> {
  const theirKv = await Deno.openKv(":memory:");
  await setSourceId(theirKv, THEIRS);
  const them = await createApp({ kv: theirKv, now: () => new Date("2026-10-01T10:00:00Z") });
  await survey(them, drive, THEIR_FRAMES);
  const theirs = (await readBundle(theirKv, SLUG))!.doc;
  theirKv.close();

  const kv = await openStore(dir);
  await setSourceId(kv, OURS);
  const app = await createApp({ kv, now: () => new Date("2026-11-01T09:00:00Z") });
  await app.bundles.import(theirs);
  await survey(app, drive, EARLIER_RUN_FRAMES);
  // A remembered car width would be loaded while frames already flow, at a moment that
  // differs between runs; without one, every run lays exactly the same cells.
  await kv.delete(carWidthKey(drive.plan.carId));
  assert.deepEqual((await readBundle(kv, SLUG))!.doc.meta.source_runs, { [THEIRS]: 1, [OURS]: 1 });
  assert.deepEqual(await listSessions(kv), []);
  kv.close();
}

/** What the run's autosaves store: the bundle before them and after each; the laps recorded. */
interface Reference {
  bundles: string[];
  laps: Map<number, Lap>;
}

/** Feeds the drive into an application over an in-memory copy of `pristine`. */
async function reference(pristine: string, drive: SyntheticDrive): Promise<Reference> {
  const disk = await openStore(pristine);
  const kv = await Deno.openKv(":memory:");
  try {
    for await (const e of disk.list({ prefix: [] })) await kv.set(e.key, e.value);
    const app = await createApp({ kv, now: () => new Date(NOW) });
    const bundles = [serialiseBundle((await readBundle(kv, SLUG))!.doc)];
    await app.survey.start({ track: TRACK });
    let fed = 0;
    for (const frame of drive.frames()) {
      app.live.ingest(frame);
      if (++fed % AUTOSAVE_FRAMES === 0) {
        await app.survey.flush();
        bundles.push(serialiseBundle((await readBundle(kv, SLUG))!.doc));
      }
    }
    await app.live.flush();
    assert.equal(fed, drive.plan.totalFrames);
    assert.equal(new Set(bundles).size, bundles.length, "two autosaves stored the same bundle");
    const laps = new Map<number, Lap>();
    for await (const e of kv.list({ prefix: ["lap"] })) {
      const id = e.key[1] as number;
      laps.set(id, (await getLap(kv, id))!);
    }
    assert.deepEqual([...laps.values()].map((l) => l.time_ms), drive.plan.lapTimesMs);
    return { bundles, laps };
  } finally {
    kv.close();
    disk.close();
  }
}

/** The highest run of ours that any vote in `doc` carries. */
function ourLatestRun(doc: BundleV4): number {
  let latest = 0;
  for (const edge of doc.edges) {
    for (const kind of KINDS) latest = Math.max(latest, edge.votes[kind]?.[OURS]?.[1] ?? 0);
  }
  return latest;
}

/**
 * Reopens the store as a restart does and checks it: the bundle is one of
 * the reference's (its index is returned), laps are whole, and a new run
 * gets an ordinal no vote carries yet.
 */
async function restart(dir: string, ref: Reference): Promise<Finding> {
  const kv = await openStore(dir);
  try {
    const found = await leftoversOf(kv);
    assert.equal(found.brokenHeads, 0, "a head names a generation that is not whole");
    const app = await createApp({ kv, now: () => new Date(NOW) });
    assert.deepEqual(await leftoversOf(kv), {
      bundleGenerations: 0,
      brokenHeads: 0,
      lapSamples: 0,
    });
    assert.deepEqual((await listBundleHeads(kv)).map((h) => h.slug), [SLUG]);
    const stored = (await readBundle(kv, SLUG))!;
    const saves = ref.bundles.indexOf(serialiseBundle(stored.doc));
    assert.ok(saves >= 0, "the bundle is none of those the autosaves store");

    for await (const e of kv.list({ prefix: ["lap"] })) {
      const id = e.key[1] as number;
      assert.deepEqual(await getLap(kv, id), ref.laps.get(id), `lap ${id} differs`);
    }
    for (const session of await listSessions(kv)) {
      assert.equal((await listLaps(kv, session.id)).length, session.lap_count);
    }
    for await (const e of kv.list({ prefix: ["car_width"] })) {
      assert.notEqual(await getCarWidth(kv, e.key[1] as number), null, "unreadable car width");
    }

    // The killed run was our second; once an autosave of it landed, the next is the third.
    const next = await app.survey.start({ track: TRACK });
    assert.equal(next.run, saves === 0 ? 2 : 3);
    assert.ok(next.run! > ourLatestRun(stored.doc));
    await app.survey.stop();
    return {
      stored: saves,
      held: `after autosave ${saves}`,
      swept: found.bundleGenerations + found.lapSamples > 0,
    };
  } finally {
    kv.close();
  }
}

Deno.test({
  name:
    "SIGKILL between any two commits of a survey autosave and at 20 timed moments leaves the bundle as one autosave left it",
  async fn() {
    const started = performance.now();
    const root = await Deno.makeTempDir({ prefix: "crash-survey-" });
    try {
      const drive = new SyntheticDrive(DRIVE);
      const autosaves = Math.floor(drive.plan.totalFrames / AUTOSAVE_FRAMES);
      const pristine = join(root, "pristine");
      await makePristine(pristine, drive);
      const ref = await reference(pristine, drive);
      assert.equal(ref.bundles.length, autosaves + 1);

      const args = (dir: string) => [dir, String(DRIVE.seed), String(DRIVE.laps), TRACK, NOW];
      await copyStore(pristine, join(root, "calibration"));
      const calibration = await new CrashChild(CHILD, args(join(root, "calibration"))).finish();
      assert.equal(calibration.code, 0, calibration.stderr);
      const timing = timings(calibration.lines, autosaves);
      const writes = commitsOf(calibration.lines, autosaves);
      // Generation number, chunks, head flip, then the previous generation's marker and chunks.
      assert.deepEqual(writes, Array(autosaves).fill({ commits: 5, visibleAt: 3 }));
      assert.deepEqual(await restart(join(root, "calibration"), ref), {
        stored: autosaves,
        held: `after autosave ${autosaves}`,
        swept: false,
      });

      const clock = new WriteClock(timing);
      const tally = await runTrials(
        {
          script: CHILD,
          args,
          root,
          prepare: (dir) => copyStore(pristine, dir),
          restart: (dir) => restart(dir, ref),
        },
        writes,
        planGates(writes),
        planKills(TRIALS, timing.length, SEED),
        clock,
      );
      assert.equal(tally.gated, 2 * 5 * autosaves);
      const spans = timing.map((_, k) => Math.round(clock.span(k + 1))).join(", ");
      console.log(
        `crash during survey autosaves: ${autosaves} autosaves take ${spans} ms (medians) from first ` +
          `commit to saved; ${tally.summary()}; ${Math.round(performance.now() - started)} ms`,
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
