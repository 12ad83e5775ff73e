/**
 * `sessions` and `laps` on the command line: tables with the ids other
 * commands take, JSON as the API serves it with `--json`.
 */
import { strict as assert } from "node:assert";
import { cli } from "../_cli.ts";
import { lineSamples, storeLaps, testLap, testSession } from "../_stored_laps.ts";
import { closeStore, openStore } from "../../src/storage/kv.ts";
import { saveLap } from "../../src/storage/laps.ts";

/** Session 1 at Lago (laps 1, 2), session 2 unnamed (lap 3, incomplete). */
async function store(dir: string): Promise<void> {
  const kv = await openStore(dir);
  try {
    const lago = await testSession(kv, "Lago Maggiore");
    await storeLaps(kv, lago, [61_500, 60_250]);
    const other = await testSession(kv, "", 3316);
    await saveLap(
      kv,
      other.id,
      testLap(lineSamples(20), { car_id: 3316, time_ms: 59_000, complete: false }),
    );
  } finally {
    closeStore(kv);
  }
}

Deno.test("sessions and laps list the store as tables, and as JSON with --json", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await store(dir);
    const sessions = await cli("sessions", "--data", dir);
    assert.equal(sessions.code, 0, sessions.stderr);
    assert.equal(
      sessions.stdout,
      [
        "id  kind  started (UTC)     car       track          laps      best",
        " 2  live  2026-11-24 09:00  Car 3316  -                 1         -",
        " 1  live  2026-11-24 09:00  Car 3315  Lago Maggiore     2  1:00.250",
        "",
      ].join("\n"),
    );
    const json = JSON.parse((await cli("sessions", "--json", "--data", dir)).stdout);
    assert.deepEqual(json.map((s: { id: number }) => s.id), [2, 1]);
    assert.equal(json[1].track_name, "Lago Maggiore");

    const one = await cli("laps", "1", "--data", dir);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(
      one.stdout,
      [
        "id  lap      time  finished (UTC)    note",
        " 1    1  1:01.500  2026-11-24 10:00",
        " 2    2  1:00.250  2026-11-24 10:00",
        "",
      ].join("\n"),
    );
    const oneJson = JSON.parse((await cli("laps", "1", "--json", "--data", dir)).stdout);
    assert.deepEqual(oneJson.map((l: { id: number }) => l.id), [1, 2]);

    const all = await cli("laps", "--order", "time", "--data", dir);
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual(
      all.stdout.split("\n").slice(1, -1).map((l) => l.trim().split(/\s+/).slice(0, 4)),
      [["3", "2", "1", "0:59.000"], ["2", "1", "2", "1:00.250"], ["1", "1", "1", "1:01.500"]],
    );
    assert.match(all.stdout.split("\n")[1], /incomplete$/);
    const fastest = JSON.parse(
      (await cli(
        "laps",
        "--json",
        "--track",
        "lago maggiore",
        "--order",
        "time",
        "--limit",
        "1",
        "--data",
        dir,
      )).stdout,
    );
    assert.deepEqual(fastest.map((l: { id: number }) => l.id), [2]);

    const unknown = await cli("laps", "9", "--data", dir);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, "sim-datalogger: session 9 not found\n");
    const badLimit = await cli("laps", "--limit", "0", "--data", dir);
    assert.equal(badLimit.code, 1);
    assert.match(badLimit.stderr, /limit/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an empty store says so", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.equal((await cli("sessions", "--data", dir)).stdout, "no sessions stored\n");
    assert.equal((await cli("laps", "--data", dir)).stdout, "no laps stored\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
