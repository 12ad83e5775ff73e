/**
 * The child process of crash_bundle_import_test.ts:
 * `deno run -A _crash_bundle_child.ts DATA_DIR BUNDLE_FILE NOW`.
 *
 * Opens the store in DATA_DIR as the application does, reads and parses
 * BUNDLE_FILE, then imports it through the application service with the
 * clock fixed at NOW. Progress lines (see `_crash_probe.ts`): `ready 0`,
 * `begin 1` just before the import, `write 1` as its first commit (the
 * generation number) is issued, `commit k` after each commit, `end 1` once
 * the import has returned.
 *
 * @module
 */
import { importBundle } from "../../src/app/bundles.ts";
import { createApp } from "../../src/app/context.ts";
import { openStore } from "../../src/storage/kv.ts";
import { keyStartsWith, say, watchCommits } from "./_crash_probe.ts";

const [dataDir, file, now] = Deno.args;
const kv = await openStore(dataDir);
const app = await createApp({ kv, now: () => new Date(now) });
const raw: unknown = JSON.parse(await Deno.readTextFile(file));
let writing = false;
let commits = 0;
watchCommits(kv, {
  before(info) {
    if (!writing && info.sets.some((k) => keyStartsWith(k, ["counter", "bundle_generation"]))) {
      writing = true;
      say("write", 1);
    }
  },
  after() {
    if (writing) say("commit", ++commits);
  },
});
say("ready");
say("begin", 1);
await importBundle(app, raw);
say("end", 1);
kv.close();
