/**
 * The child process of crash_lap_recording_test.ts:
 * `deno run -A _crash_lap_child.ts DATA_DIR SEED LAPS NOW [STOP]`.
 *
 * Opens the store in DATA_DIR as the application does and feeds the
 * synthetic race drive of SEED (LAPS timed laps) into its live service as
 * fast as it can, a few frames per turn of the event loop so the lap
 * recorder's writes run alongside, as they do while telemetry streams in.
 * The clock is fixed at NOW. Progress lines (see `_crash_probe.ts`) for
 * each lap k: `begin k` once the frame that completes it has been fed,
 * `write k` as its first commit is issued (the session's id for the first
 * lap, else the lap's id), `end k` once the commit that stores it resolved.
 *
 * With STOP `after-session`, the child kills itself (SIGKILL) at one exact
 * point instead: the first lap's session stored, its lap id about to be
 * allocated. That reproduces one moment deterministically.
 *
 * @module
 */
import { createApp } from "../../src/app/context.ts";
import { SyntheticDrive } from "../../src/core/synthetic/drive.ts";
import { openStore } from "../../src/storage/kv.ts";
import { keyStartsWith, say, watchCommits, yieldToLoop } from "./_crash_probe.ts";

/** Frames fed per turn of the event loop. */
const BATCH = 30;

const [dataDir, seed, laps, now, stop] = Deno.args;
const kv = await openStore(dataDir);
const app = await createApp({ kv, now: () => new Date(now) });
const drive = new SyntheticDrive({ seed: Number(seed), laps: Number(laps) });
let writes = 0;
let writing = false;
watchCommits(kv, {
  before(info) {
    const allocates = info.sets.some((k) =>
      keyStartsWith(k, ["counter", "session"]) || keyStartsWith(k, ["counter", "lap"])
    );
    if (!writing && allocates) {
      writing = true;
      say("write", ++writes);
    }
    if (stop === "after-session" && info.sets.some((k) => keyStartsWith(k, ["counter", "lap"]))) {
      Deno.kill(Deno.pid, "SIGKILL");
    }
  },
  after(info, ok) {
    if (writing && ok && info.sets.some((k) => keyStartsWith(k, ["session_lap"]))) {
      writing = false;
      say("end", writes);
    }
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
