/**
 * A process killed (SIGKILL) while the live service stores a lap leaves
 * that lap either whole or absent, and every earlier lap and the session
 * exactly as they were, readable after a restart.
 *
 * Each trial is a real child process feeding a synthetic three-lap race
 * into the live service over a store on disk; the parent kills it at a
 * planned moment of one lap's write (see _crash_harness.ts), reopens the
 * store through createApp (which sweeps) and compares every stored lap,
 * samples included, and the session with a reference computed in memory
 * by feeding the same frames into an application in this process.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { createApp } from "../../src/app/context.ts";
import type { Lap } from "../../src/core/laps/lap.ts";
import type { Session } from "../../src/core/laps/session.ts";
import { SyntheticDrive } from "../../src/core/synthetic/drive.ts";
import { openStore } from "../../src/storage/kv.ts";
import { getLap, listLaps } from "../../src/storage/laps.ts";
import { listSessions } from "../../src/storage/sessions.ts";
import {
  CrashChild,
  crashSeed,
  CrashTally,
  killAt,
  landingOf,
  leftoversOf,
  planKills,
  progressOf,
  timings,
  WriteClock,
} from "./_crash_harness.ts";

const CHILD = new URL("./_crash_lap_child.ts", import.meta.url).pathname;
const NOW = "2026-11-21T12:00:00.000Z";
const DRIVE = { seed: 3, laps: 3 };
const TRIALS = 50;
const SEED = crashSeed(0x1a95);

/** What the store holds after k laps: the laps, and the session (index 0: created, no lap). */
interface Reference {
  laps: Lap[];
  sessions: Session[];
}

/** Feeds the drive into an application in memory, noting the session after every lap. */
async function reference(): Promise<Reference> {
  const kv = await Deno.openKv(":memory:");
  try {
    const app = await createApp({ kv, now: () => new Date(NOW) });
    const sessions: Session[] = [];
    app.bus.subscribe((e) => {
      if (e.type === "session" && e.reason === "created" && e.session) sessions.push(e.session);
    });
    const drive = new SyntheticDrive(DRIVE);
    const completes = new Set(drive.plan.crossingFrames.slice(1));
    let index = 0;
    for (const frame of drive.frames()) {
      app.live.ingest(frame);
      if (completes.has(index++)) {
        await app.live.flush();
        sessions.push(app.live.session!);
      }
    }
    await app.live.flush();
    const session = sessions[0];
    assert.deepEqual(sessions.map((s) => [s.id, s.lap_count]), [[1, 0], [1, 1], [1, 2], [1, 3]]);
    const ids = (await listLaps(kv, session.id)).map((l) => l.id);
    assert.deepEqual(ids, [1, 2, 3]);
    const laps = await Promise.all(ids.map(async (id) => (await getLap(kv, id))!));
    assert.deepEqual(laps.map((l) => l.time_ms), drive.plan.lapTimesMs);
    return { laps, sessions };
  } finally {
    kv.close();
  }
}

/** Reopens the store as a restart does; checks it holds laps 1..j as recorded and their session. */
async function restart(
  dir: string,
  ref: Reference,
): Promise<{ laps: number; session: boolean; swept: boolean }> {
  const kv = await openStore(dir);
  try {
    const found = await leftoversOf(kv);
    assert.equal(found.bundleGenerations + found.brokenHeads, 0);
    await createApp({ kv, now: () => new Date(NOW) });
    assert.deepEqual(await leftoversOf(kv), {
      bundleGenerations: 0,
      brokenHeads: 0,
      lapSamples: 0,
    });
    const ids: number[] = [];
    for await (const e of kv.list({ prefix: ["lap"] })) ids.push(e.key[1] as number);
    const j = ids.length;
    assert.deepEqual(ids, ref.laps.slice(0, j).map((l) => l.id), "laps are not a prefix");
    for (const id of ids) {
      assert.deepEqual(await getLap(kv, id), ref.laps[id - 1], `lap ${id} differs`);
    }
    const sessions = await listSessions(kv);
    const swept = found.lapSamples > 0;
    // Killed before the first lap's session was created: nothing at all.
    if (j === 0 && sessions.length === 0) return { laps: 0, session: false, swept };
    assert.deepEqual(sessions, [ref.sessions[j]]);
    assert.deepEqual((await listLaps(kv, sessions[0].id)).map((l) => l.id), ids);
    return { laps: j, session: true, swept };
  } finally {
    kv.close();
  }
}

Deno.test({
  name: "SIGKILL at 50 moments of lap recording leaves each lap whole or absent",
  async fn() {
    const started = performance.now();
    const root = await Deno.makeTempDir({ prefix: "crash-lap-" });
    try {
      const ref = await reference();
      const args = (dir: string) => [dir, String(DRIVE.seed), String(DRIVE.laps), NOW];
      const calibration = await new CrashChild(CHILD, args(join(root, "calibration"))).finish();
      assert.equal(calibration.code, 0, calibration.stderr);
      const timing = timings(calibration.lines, DRIVE.laps);
      assert.deepEqual(await restart(join(root, "calibration"), ref), {
        laps: 3,
        session: true,
        swept: false,
      });

      const tally = new CrashTally();
      const clock = new WriteClock(timing);
      for (const [i, aim] of planKills(TRIALS, timing.length, SEED).entries()) {
        const dir = join(root, `trial-${i}`);
        const exit = await killAt(new CrashChild(CHILD, args(dir)), aim, clock);
        const progress = progressOf(exit.lines);
        const seen = await restart(dir, ref);
        // A lap is stored only once its write had begun, and for sure once it had ended.
        assert.ok(
          progress.ended <= seen.laps && seen.laps <= progress.started,
          `trial ${i}: ${JSON.stringify({ progress, laps: seen.laps })}`,
        );
        // The start-up sweep removes an empty live session: no lap means no session.
        assert.equal(seen.session, seen.laps > 0, `trial ${i}: session without laps`);
        const held = seen.laps === 0 ? "nothing" : `laps 1-${seen.laps}`;
        tally.add(landingOf(progress, aim.n), held, seen.swept);
        await Deno.remove(dir, { recursive: true });
      }
      // The plan aims nine kills in ten at the write itself: a fifth at least must land there.
      assert.ok(tally.inside >= Math.ceil(TRIALS / 5), tally.summary());
      const spans = timing.map((_, k) => clock.span(k + 1).toFixed(1)).join(", ");
      console.log(
        `crash during lap recording: lap writes take ${spans} ms (medians) from first commit to stored; ` +
          `${tally.summary()}; ${Math.round(performance.now() - started)} ms`,
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "SIGKILL between the first lap's session and its lap leaves no empty session",
  // LiveService stores a session's record in a write of its own just before
  // its first lap; the start-up sweep removes the empty live session a kill in
  // between leaves, so the store is as before the lap.
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "crash-lap-session-" });
    try {
      const dir = join(root, "store");
      const exit = await new CrashChild(CHILD, [
        dir,
        String(DRIVE.seed),
        String(DRIVE.laps),
        NOW,
        "after-session",
      ]).finish();
      assert.equal(exit.killed, true, exit.stderr);
      assert.deepEqual(progressOf(exit.lines), { started: 1, ended: 0, inside: true });
      const kv = await openStore(dir);
      try {
        await createApp({ kv, now: () => new Date(NOW) });
        assert.deepEqual(await listSessions(kv), []);
      } finally {
        kv.close();
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
