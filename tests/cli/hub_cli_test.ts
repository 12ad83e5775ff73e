/**
 * `hub drivers add|list|revoke` on a hub's PGlite data folder: the token
 * printed once is the driver's, and the list shows the revocation.
 */
import { strict as assert } from "node:assert";
import { runCli } from "../../src/cli/program.ts";
import { freshPgliteFolder } from "../_hub.ts";
import { HubApp } from "../../src/app/hub/hub_app.ts";
import { openHubStore } from "../../src/storage/hub/open_store.ts";

/** Runs the command line on `args`, answering its exit code and what it printed. */
async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const { log, error } = console;
  console.log = (...parts: unknown[]) => out.push(parts.join(" "));
  console.error = (...parts: unknown[]) => err.push(parts.join(" "));
  try {
    const code = await runCli(args);
    return { code, out: out.join("\n"), err: err.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
}

Deno.test("hub drivers add, list and revoke act on the hub's database", async () => {
  const data = await freshPgliteFolder();
  try {
    const added = await run("hub", "drivers", "add", "alice", "--data", data);
    assert.equal(added.code, 0, added.err);
    const token = /^alice: (hub_\S+)$/.exec(added.out)?.[1];
    assert.ok(token, added.out);
    const revoked = await run("hub", "drivers", "revoke", "alice", "--data", data);
    assert.equal(revoked.code, 0, revoked.err);
    const at = /^alice: revoked at (\S+)$/.exec(revoked.out)?.[1];
    const listed = await run("hub", "drivers", "list", "--data", data);
    assert.deepEqual(listed.out.split("\n").map((l) => l.split(/ {2,}/)), [
      ["name", "created", "revoked"],
      ["alice", listed.out.split("\n")[1].split(/ {2,}/)[1], at],
    ]);
    // The token printed is the driver's, now refused as revoked.
    const db = await openHubStore({ dataDir: data });
    try {
      await assert.rejects(
        () => new HubApp({ db }).principal(`Bearer ${token}`),
        { message: `the token of alice was revoked at ${at}` },
      );
    } finally {
      await db.close();
    }
  } finally {
    await Deno.remove(data, { recursive: true });
  }
});
