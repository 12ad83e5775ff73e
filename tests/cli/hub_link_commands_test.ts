/**
 * `push`, `bundles push` and `bundles pull` run in this process against a
 * store in a temporary folder and a fake hub on a real port.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { withStore } from "../../src/cli/with_store.ts";
import { startFakeHub } from "../_fake_hub.ts";
import { minimalLapFile } from "../_lap_files.ts";
import { syntheticBundle } from "../_bundles.ts";

/** Runs the command line on `args`, returning its exit code and what it printed. */
async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const { log, error, warn } = console;
  console.log = (...a: unknown[]) => void out.push(a.join(" "));
  console.error = console.warn = (...a: unknown[]) => void err.push(a.join(" "));
  try {
    return { code: await runCli(args), out, err };
  } finally {
    Object.assign(console, { log, error, warn });
  }
}

Deno.test("push sends stored laps by id or session, and bundles push and pull through the hub", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hub-cli-" });
  const hub = startFakeHub();
  try {
    const data = join(dir, "data");
    const ids = await withStore(data, async (app) => {
      const a = await app.laps.importFile(minimalLapFile(30, { track_name: "Spa", time_ms: 1100 }));
      const b = await app.laps.importFile(minimalLapFile(30, { track_name: "Spa", time_ms: 1200 }));
      await app.bundles.import(
        syntheticBundle({ cells: 30, sources: ["aaaaaa"], runs: 1, seed: 4, track: "Spa" }),
      );
      return { a: a.lap.id, bSession: b.session.id };
    });
    const flags = ["--data", data, "--hub", hub.url, "--hub-token", hub.token];

    let r = await run(["push", String(ids.a), ...flags]);
    assert.deepEqual(r, { code: 0, out: [`1 lap: sent to ${hub.url} (1 taken)`], err: [] });
    r = await run(["push", "--session", String(ids.bSession), ...flags]);
    assert.deepEqual(r.out, [`1 lap: sent to ${hub.url} (1 taken)`]);
    assert.deepEqual(hub.laps.map((l) => l.file.lap.time_ms), [1100, 1200]);

    r = await run(["bundles", "push", "spa", ...flags]);
    assert.deepEqual(r.out, [`bundle spa: sent to ${hub.url} (1 taken)`]);
    assert.equal(hub.votes.get("spa")!.length, 1);

    hub.bundles.set(
      "spa",
      syntheticBundle({
        cells: 30,
        sources: ["bbbbbb"],
        runs: 1,
        seed: 4,
        track: "Spa",
        first: 30,
      }),
    );
    r = await run(["bundles", "pull", "spa", ...flags]);
    assert.deepEqual(r.out, [
      "bundle spa: merged the team's votes from the hub (60 edges, 30 new)",
    ]);

    // The hub down: the lap stays queued and the command says so, failing.
    await hub.down();
    r = await run(["push", String(ids.a), ...flags]);
    assert.equal(r.code, 1);
    assert.match(
      r.err[0],
      /^sim-datalogger: 1 lap: 1 not sent yet \(hub unreachable: .*\); they stay queued/,
    );
    hub.up();
  } finally {
    await hub.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("push refuses a missing hub, a bad id and no laps, naming what is wrong", async () => {
  const env = Deno.env.get("SIM_DATALOGGER_HUB");
  Deno.env.delete("SIM_DATALOGGER_HUB");
  try {
    let r = await run(["push", "3", "--data", ":memory:"]);
    assert.deepEqual(r.err, [
      "sim-datalogger: no team hub given: pass --hub URL --hub-token TOKEN (or set SIM_DATALOGGER_HUB and SIM_DATALOGGER_HUB_TOKEN)",
    ]);
    r = await run(["push", "x", "--hub", "http://h", "--hub-token", "t"]);
    assert.deepEqual(r.err, ['sim-datalogger: lap id must be a positive integer, not "x"']);
    r = await run(["push", "--hub", "http://h", "--hub-token", "t"]);
    assert.deepEqual(r.err, [
      "sim-datalogger: name the laps to push (push 12 13) or a session (push --session 4)",
    ]);
    r = await run(["push", "1", "--hub", "ftp://h", "--hub-token", "t", "--data", ":memory:"]);
    assert.deepEqual(r.err, ["sim-datalogger: --hub must be an http or https URL, not ftp"]);
  } finally {
    if (env !== undefined) Deno.env.set("SIM_DATALOGGER_HUB", env);
  }
});
