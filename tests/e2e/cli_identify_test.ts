/**
 * `identify` on the command line: one summary line that counts sessions
 * named only from a reference line as named, and JSON only with `--json`.
 */
import { strict as assert } from "node:assert";
import { cli } from "../_cli.ts";
import { lineSamples, testLap } from "../_stored_laps.ts";
import { closeStore, openStore } from "../../src/storage/kv.ts";
import { saveLap } from "../../src/storage/laps.ts";
import { createSession } from "../../src/storage/sessions.ts";

/** Four sessions of one straight 1 km lap each: two unnamed, two named from a reference line. */
async function fourSessions(dir: string): Promise<void> {
  const kv = await openStore(dir);
  try {
    for (const name of ["", "Suzuka Circuit", "", "Autopolis"]) {
      const s = await createSession(kv, {
        kind: "live",
        started_at: "2026-11-24T09:00:00.000Z",
        car_id: 3315,
        car_name: "Car 3315",
        track_name: name,
        track_source: name === "" ? "" : "reference",
      });
      await saveLap(kv, s.id, testLap(lineSamples(300)));
    }
  } finally {
    closeStore(kv);
  }
}

Deno.test("identify says how many had names, and prints JSON only when asked", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await fourSessions(dir);
    const plain = await cli("identify", "--data", dir);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(
      plain.stdout,
      "identify: 4 session(s) to check (2 unnamed, 2 named only from a reference line), " +
        "4 with a lap to try; named 0; 2 keep their reference-line name, 2 stay unnamed\n",
    );
    const json = await cli("identify", "--json", "--data", dir);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), { checked: 4, identified: 0, tracks: {} });
    assert.equal(json.stdout.trim().split("\n").length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
