/**
 * The child process of crash_full_disk_survey_test.ts:
 * `deno run -A _full_disk_survey_child.ts DATA_DIR SPILL_BASE NOW`.
 *
 * Opens the store in DATA_DIR as the logger does, with its spill under
 * SPILL_BASE, through the refusing store of tests/_refusing_kv.ts (so the
 * disk is "full" exactly when the child says, on any machine). It surveys
 * a run on "Alpha" and stops it with room (`stored 1` once saved), then
 * surveys a run on "Ring" and stops it with the disk full: the stop's save
 * is refused and waits (`refused 1`), then `waiting n` with the survey runs
 * waiting for the store, after which it waits to be killed.
 *
 * @module
 */
import { createApp } from "../../src/app/create_app.ts";
import { StoreRefused } from "../../src/core/store_refusal.ts";
import { openStore, storePath } from "../../src/storage/kv.ts";
import { straight } from "../core/survey/_frames.ts";
import { refusingKv } from "../_refusing_kv.ts";
import { say } from "./_crash_probe.ts";

const [dataDir, spillBase, now] = Deno.args;
const kv = await openStore(dataDir);
const store = refusingKv(kv);
const app = await createApp({
  kv: store.kv,
  now: () => new Date(now),
  storePath: storePath(kv),
  spillBase,
});

await app.survey.start({ track: "Alpha" });
for (const f of straight(600, 12, () => "GTGT", { z0: 0, packet0: 1 })) app.live.ingest(f);
await app.survey.stop();
say("stored", 1);

await app.survey.start({ track: "Ring" });
for (const f of straight(600, 12, () => "GTGT", { z0: 500, packet0: 1001 })) app.live.ingest(f);
store.full = true;
try {
  await app.survey.stop();
} catch (err) {
  if (!(err instanceof StoreRefused)) throw err;
  say("refused", 1);
}
say("waiting", app.storeHealth.status().surveys_waiting);
// Killed here, with the run's save still waiting.
await new Promise(() => {});
