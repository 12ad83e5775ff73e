/**
 * The child process of crash_bundle_import_test.ts:
 * `deno run -A _crash_bundle_child.ts DATA_DIR BUNDLE_FILE NOW [GATE]`.
 *
 * Opens the store in DATA_DIR as the application does, reads and parses
 * BUNDLE_FILE, then imports it through the application service with the
 * clock fixed at NOW. Progress lines (see `_crash_probe.ts`): `ready 0`,
 * `begin 1` just before the import, `write 1` as its first commit (the
 * generation number) is issued, `done 1` after each of its commits,
 * `visible 1` once the head names the new generation, `end 1` once the
 * import has returned.
 *
 * With GATE (`1:commit:before|after`, see {@linkcode parseGate}) the child
 * kills itself (SIGKILL) at that exact point of the import.
 *
 * @module
 */
import { createApp } from "../../src/app/create_app.ts";
import { openStore } from "../../src/storage/kv.ts";
import { keyStartsWith, parseGate, say, watchCommits, WriteTracker } from "./_crash_probe.ts";

const [dataDir, file, now, gate] = Deno.args;
const kv = await openStore(dataDir);
const app = await createApp({ kv, now: () => new Date(now) });
const raw: unknown = JSON.parse(await Deno.readTextFile(file));
const tracker = new WriteTracker(parseGate(gate));
let writing = false;
watchCommits(kv, {
  before(info) {
    if (!writing && info.sets.some((k) => keyStartsWith(k, ["counter", "bundle_generation"]))) {
      writing = true;
    }
    if (writing) tracker.issuing(1);
  },
  after(info, ok) {
    if (!writing) return;
    tracker.resolved(1, ok && info.sets.some((k) => k.length === 2 && k[0] === "bundle"));
  },
});
say("ready");
say("begin", 1);
await app.bundles.import(raw);
say("end", 1);
kv.close();
