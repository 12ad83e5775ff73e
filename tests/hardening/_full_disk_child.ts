/**
 * The child process of crash_full_disk_test.ts:
 * `deno run -A _full_disk_child.ts DATA_DIR SPILL_BASE NOW SEED LAPS FILL_AFTER FILLER`.
 *
 * Opens the store in DATA_DIR as the logger does, with its spill under
 * SPILL_BASE, and feeds the synthetic drive of SEED (LAPS laps) into the
 * live service. Once lap FILL_AFTER is stored it fills the store's disk
 * with the file FILLER. Progress lines (see `_crash_probe.ts`): `stored k`
 * once lap k is complete and every write settled, `waiting n` each time
 * the laps waiting for the store change to n, `spill-failed 0` when the
 * spill could not take a lap, and `drove 0` at the end of the drive, after
 * which it waits to be killed.
 *
 * @module
 */
import { createApp } from "../../src/app/create_app.ts";
import { openStore, storePath } from "../../src/storage/kv.ts";
import { say } from "./_crash_probe.ts";
import { driveInto } from "../_driven_store.ts";

const [dataDir, spillBase, now, seed, laps, fillAfter, filler] = Deno.args;
const kv = await openStore(dataDir);
const app = await createApp({ kv, now: () => new Date(now), storePath: storePath(kv), spillBase });
let spillFailed = false;
app.bus.subscribe((e) => {
  if (e.type !== "store") return;
  say("waiting", e.status.laps_waiting);
  if (e.status.spill_error !== null && !spillFailed) {
    spillFailed = true;
    say("spill-failed");
  }
});

function fill(path: string): void {
  const file = Deno.openSync(path, { write: true, create: true, append: true });
  const chunk = new Uint8Array(4096);
  try {
    for (;;) file.writeSync(chunk);
  } catch {
    // ENOSPC: the disk is full.
  } finally {
    file.close();
  }
}

await driveInto(app, { seed: Number(seed), laps: Number(laps) }, (k) => {
  say("stored", k);
  if (k === Number(fillAfter)) fill(filler);
});
say("drove");
// Killed here, with the laps still waiting.
await new Promise(() => {});
