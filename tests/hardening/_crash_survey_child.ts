/**
 * The child process of crash_survey_autosave_test.ts:
 * `deno run -A _crash_survey_child.ts DATA_DIR SEED LAPS TRACK NOW [GATE]`.
 *
 * Opens the store in DATA_DIR as the application does, starts a survey of
 * TRACK and feeds the synthetic survey drive of SEED (LAPS timed laps) into the live service
 * as fast as it can, a few frames per turn of the event loop so the
 * survey's autosaves (every AUTOSAVE_FRAMES frames) and the lap recorder's
 * writes run alongside, as they do while telemetry streams in. The clock is
 * fixed at NOW; the run is never stopped. Progress lines (see
 * `_crash_probe.ts`) for each autosave k: `begin k` once the frame that
 * triggers it has been fed, `write k` as its first commit (the generation
 * number) is issued, `done k` after each of its commits (the lap recorder's
 * are not counted), `visible k` once the head names its generation, `end k`
 * once the saved bundle is announced.
 *
 * With GATE (`n:commit:before|after`, see {@linkcode parseGate}) the child
 * kills itself (SIGKILL) at that exact point of autosave n.
 *
 * @module
 */
import { createApp } from "../../src/app/create_app.ts";
import { AUTOSAVE_FRAMES } from "../../src/app/survey/survey.ts";
import { SyntheticDrive } from "../../src/core/synthetic/drive.ts";
import { openStore } from "../../src/storage/kv.ts";
import {
  type CommitInfo,
  keyStartsWith,
  parseGate,
  say,
  watchCommits,
  WriteTracker,
  yieldToLoop,
} from "./_crash_probe.ts";

/** Frames fed per turn of the event loop. */
const BATCH = 30;

/**
 * True for a commit of a bundle write: it touches bundle keys or the
 * generation counter, or only checks (a sweep finding the marker gone
 * already). The lap recorder's and car widths' commits always set a key.
 */
function ofBundle(info: CommitInfo): boolean {
  const keys = [...info.sets, ...info.deletes];
  return keys.length === 0 ||
    keys.some((k) =>
      ["bundle", "bundle_chunk", "bundle_pending"].includes(String(k[0])) ||
      keyStartsWith(k, ["counter", "bundle_generation"])
    );
}

const [dataDir, seed, laps, track, now, gate] = Deno.args;
const kv = await openStore(dataDir);
const app = await createApp({ kv, now: () => new Date(now) });
const drive = new SyntheticDrive({ seed: Number(seed), laps: Number(laps), mode: "survey" });
const tracker = new WriteTracker(parseGate(gate));
let writes = 0;
let ends = 0;
watchCommits(kv, {
  before(info) {
    if (info.sets.some((k) => keyStartsWith(k, ["counter", "bundle_generation"]))) writes++;
    if (writes > ends && ofBundle(info)) tracker.issuing(writes);
  },
  after(info, ok) {
    if (writes > ends && ofBundle(info)) {
      tracker.resolved(writes, ok && info.sets.some((k) => k.length === 2 && k[0] === "bundle"));
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
