/**
 * Where the dashboard's exports go: a store's own `exports` folder, and for
 * an in-memory store a folder of the process's own in the temporary
 * directory, never the real data folder.
 */
import { strict as assert } from "node:assert";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { exportsDir } from "../../src/cli/start.ts";
import { defaultDataDir } from "../../src/storage/kv.ts";

Deno.test("a store on disk exports into its own exports folder, as an absolute path", () => {
  assert.equal(exportsDir("/srv/laps"), "/srv/laps/exports");
  assert.equal(exportsDir("laps"), join(resolve("laps"), "exports"));
});

Deno.test("an in-memory store exports under the temporary directory, never the data folder", () => {
  const dir = exportsDir(":memory:");
  assert.equal(dir, join(tmpdir(), `sim-datalogger-memory-${Deno.pid}`, "exports"));
  assert.ok(!dir.startsWith(defaultDataDir()), dir);
});
