/**
 * The child process of crash_lap_recording_test.ts:
 * `deno run -A _crash_lap_child.ts DATA_DIR SEED LAPS NOW [GATE]`.
 *
 * Opens the store in DATA_DIR as the application does and feeds the
 * synthetic race drive of SEED (LAPS timed laps) into its live service as
 * fast as it can, a few frames per turn of the event loop so the lap
 * recorder's writes run alongside, as they do while telemetry streams in.
 * The clock is fixed at NOW. Progress lines (see `_crash_probe.ts`) for
 * each lap k: `begin k` once the frame that completes it has been fed,
 * `write k` as its first commit is issued (the session's id for the first
 * lap, else the lap's id), `done k` after each of its commits, `visible k`
 * and `end k` once the commit that stores it resolved.
 *
 * With GATE (`n:commit:before|after`, see {@linkcode parseGate}) the child
 * kills itself (SIGKILL) at that exact point of lap n's write, so one
 * moment is reproduced deterministically, however busy the machine.
 *
 * @module
 */
import { createApp } from "../../src/app/create_app.ts";
import { SyntheticDrive } from "../../src/core/synthetic/drive.ts";
import { openStore } from "../../src/storage/kv.ts";
import {
  keyStartsWith,
  parseGate,
  say,
  watchCommits,
  WriteTracker,
  yieldToLoop,
} from "./_crash_probe.ts";

/** Frames fed per turn of the event loop. */
const BATCH = 30;

/** Keys a lap's write sets: ids, its samples, the lap, its session. */
const LAP_KEYS: Deno.KvKey[] = [
  ["counter", "session"],
  ["counter", "lap"],
  ["lap_samples"],
  ["lap"],
  ["session_lap"],
  ["session"],
];

const [dataDir, seed, laps, now, gate] = Deno.args;
const kv = await openStore(dataDir);
const app = await createApp({ kv, now: () => new Date(now) });
const drive = new SyntheticDrive({ seed: Number(seed), laps: Number(laps) });
const tracker = new WriteTracker(parseGate(gate));
let writes = 0;
let writing = false;
watchCommits(kv, {
  before(info) {
    const allocates = info.sets.some((k) =>
      keyStartsWith(k, ["counter", "session"]) || keyStartsWith(k, ["counter", "lap"])
    );
    if (!writing && allocates) {
      writing = true;
      writes++;
    }
    if (writing && info.sets.some((k) => LAP_KEYS.some((p) => keyStartsWith(k, p)))) {
      tracker.issuing(writes);
    }
  },
  after(info, ok) {
    if (!writing || !info.sets.some((k) => LAP_KEYS.some((p) => keyStartsWith(k, p)))) return;
    const stored = ok && info.sets.some((k) => keyStartsWith(k, ["session_lap"]));
    if (stored) writing = false;
    tracker.resolved(writes, stored);
    if (stored) say("end", writes);
  },
});
// Frame index -> the lap its feeding completes (the first crossing only starts lap 1).
const completes = new Map(drive.plan.crossingFrames.slice(1).map((f, i) => [f, i + 1]));
say("ready");
let index = 0;
for (const frame of drive.frames()) {
  app.live.ingest(frame);
  const lap = completes.get(index);
  if (lap !== undefined) say("begin", lap);
  if (++index % BATCH === 0) await yieldToLoop();
}
await app.live.flush();
say("finished");
kv.close();
