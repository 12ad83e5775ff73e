/**
 * The coaching cue with `--reference team` (#38): once the session is
 * named and the team's best is kept, a lap's announced notes, and so the
 * next lap's cue, are against the teammate's lap and say whose; with the
 * hub down and nothing kept, against the driver's own best as before.
 *
 * The teammate's lap is the driver's own best made 15% quicker from 200 m
 * to 700 m (Turn 1), so Turn 1 is a loss against alice and nothing
 * against the own best (the same lap).
 */
import { strict as assert } from "node:assert";
import type { Lap } from "../../src/core/laps/lap.ts";
import { toLapFile } from "../../src/core/laps/lap_file.ts";
import { noFixtures } from "../_fixtures.ts";
import { driveTeam, fakeHub, suzukaBest } from "./_team_hub.ts";

/** Frames driven on into lap 2, past Turn 1's braking point (about 610 m). */
const ONWARD = 200;

/** `lap` with the stretch from `a` to `b` metres driven `k` times the time (speed over `k`). */
function quickerBetween(lap: Lap, a: number, b: number, k: number): Lap {
  const { t, dist, speed } = lap.samples;
  const quick = { t: [...t], speed: [...speed] };
  let saved = 0;
  for (let i = 1; i < t.length; i++) {
    if (dist[i] > a && dist[i] <= b) {
      saved += (t[i] - t[i - 1]) * (1 - k);
      quick.speed[i] = speed[i] / k;
    }
    quick.t[i] = t[i] - saved;
  }
  return { ...lap, samples: { ...lap.samples, ...quick } };
}

Deno.test({
  name: "--reference team: a lap's notes and the next lap's cue are against the team's best, " +
    "saying whose; against the own best while the hub is down and nothing is kept",
  ignore: noFixtures,
  async fn() {
    await using kv = await Deno.openKv(":memory:");
    const { lap } = await suzukaBest(kv);
    const alice = quickerBetween(lap, 200, 700, 0.85);
    const hub = fakeHub(
      lap.car_id,
      toLapFile(alice, { track_name: "Suzuka Circuit", car_name: "" }),
    );
    hub.state.board = { driver: "alice", best_ms: 98_000, lap_id: 7 };
    try {
      const drive = await driveTeam(kv, hub.url, ONWARD);
      assert.deepEqual(drive.notes.map((e) => e.lap_number), [1]);
      const notes = drive.notes[0].notes;
      // Whose lap: not in this store (no id to link to), the hub's lap 7, alice's.
      assert.deepEqual(
        [notes.ref_id, notes.ref_hub_lap_id, notes.ref_driver, notes.lap_delta_s],
        [null, "7", "alice", 1.036],
      );
      assert.deepEqual(notes.notes.map((n) => [n.n, n.cue]), [[1, "Turn 1: brake lighter"]]);
      const cues = drive.frames.filter((f) => f.cue !== null);
      assert.ok(cues.length > 0);
      for (const f of cues) {
        assert.equal(f.lap, 2);
        assert.deepEqual(f.cue, {
          text: "Turn 1: brake lighter",
          n: 1,
          name: "Turn 1",
          loss_s: notes.notes[0].loss_s,
          lap_id: notes.lap_id,
          at_m: notes.notes[0].cue_at_m,
        });
      }
    } finally {
      await hub.server.shutdown();
    }
    // Another store, the hub gone: against the own best (the same lap), so nothing to cue.
    await using fresh = await Deno.openKv(":memory:");
    const own = await suzukaBest(fresh);
    const offline = await driveTeam(fresh, hub.url, ONWARD);
    assert.deepEqual(offline.notes.map((e) => e.lap_number), [1]);
    const notes = offline.notes[0].notes;
    assert.deepEqual(
      [notes.ref_id, notes.ref_hub_lap_id, notes.ref_driver, notes.notes],
      [own.lap.id, null, null, []],
    );
    assert.equal(offline.frames.filter((f) => f.cue !== null).length, 0);
  },
});
