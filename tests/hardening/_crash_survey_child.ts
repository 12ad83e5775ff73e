/**
 * The child process of crash_survey_autosave_test.ts:
 * `deno run -A _crash_survey_child.ts DATA_DIR SEED LAPS TRACK NOW`.
 *
 * Opens the store in DATA_DIR as the application does, starts a survey of
 * TRACK and feeds the synthetic survey drive of SEED (LAPS timed laps) into the live service
 * as fast as it can, a few frames per turn of the event loop so the
 * survey's autosaves (every AUTOSAVE_FRAMES frames) and the lap recorder's
 * writes run alongside, as they do while telemetry streams in. The clock is
 * fixed at NOW; the run is never stopped. Progress lines (see
 * `_crash_probe.ts`) for each autosave k: `begin k` once the frame that
 * triggers it has been fed, `write k` as its first commit (the generation
 * number) is issued, `end k` once the saved bundle is announced.
 *
 * @module
 */
import { createApp } from "../../src/app/context.ts";
import { AUTOSAVE_FRAMES } from "../../src/app/survey.ts";
import { SyntheticDrive } from "../../src/core/synthetic/drive.ts";
import { openStore } from "../../src/storage/kv.ts";
import { keyStartsWith, say, watchCommits, yieldToLoop } from "./_crash_probe.ts";

/** Frames fed per turn of the event loop. */
const BATCH = 30;

const [dataDir, seed, laps, track, now] = Deno.args;
const kv = await openStore(dataDir);
const app = await createApp({ kv, now: () => new Date(now) });
const drive = new SyntheticDrive({ seed: Number(seed), laps: Number(laps), mode: "survey" });
let writes = 0;
let ends = 0;
watchCommits(kv, {
  before(info) {
    if (info.sets.some((k) => keyStartsWith(k, ["counter", "bundle_generation"]))) {
      say("write", ++writes);
    }
  },
});
app.bus.subscribe((e) => {
  if (e.type === "bundle" && e.reason === "survey") say("end", ++ends);
});
await app.survey.start({ track });
say("ready");
let fed = 0;
for (const frame of drive.frames()) {
  app.live.ingest(frame);
  if (++fed % AUTOSAVE_FRAMES === 0) say("begin", fed / AUTOSAVE_FRAMES);
  if (fed % BATCH === 0) await yieldToLoop();
}
await app.survey.flush();
await app.live.flush();
say("finished");
kv.close();
