/**
 * A teammate as the reference while driving (#38), against a small fake
 * hub (a real Deno.serve on an ephemeral port) that answers the contract's
 * leaderboard and lap file, counts requests, and can go down.
 *
 * - TeamReference: fetched with the token, decoded by the lap-file reader,
 *   kept in the store by circuit and car; asked again, the lap file is
 *   fetched only when the team's best changed; a restart with the hub down
 *   still has the kept lap; an answer of other rules keeps what was kept.
 * - Through the live service (`teamReference` on createApp): once the
 *   session is named, the gap runs against the team's best and says whose;
 *   with the hub down and nothing kept, against the driver's own best.
 */
import { strict as assert } from "node:assert";
import { TeamReference } from "../../src/app/hub_link/team_reference.ts";
import { noFixtures } from "../_fixtures.ts";
import { driveTeam, fakeHub, keptLog, suzukaBest, TOKEN } from "./_team_hub.ts";

Deno.test({
  name: "the team's best is fetched with the token, kept by circuit and car, fetched again only " +
    "when it changed, and still there on a restart with the hub down",
  ignore: noFixtures,
  async fn() {
    await using kv = await Deno.openKv(":memory:");
    const { lap, file } = await suzukaBest(kv);
    const hub = fakeHub(lap.car_id, file);
    const deps = { kv, log: keptLog(), now: () => new Date("2026-11-28T12:00:00Z") };
    try {
      const team = new TeamReference(deps, { url: hub.url, token: TOKEN });
      // The team has no lap there yet: nothing kept, nothing fetched but the board.
      assert.equal(await team.refresh("suzuka-circuit", lap.car_id), false);
      assert.equal(await team.cached("suzuka-circuit", lap.car_id), null);
      hub.state.board = { driver: "alice", best_ms: 98_000, lap_id: 7 };
      assert.equal(await team.refresh("suzuka-circuit", lap.car_id), true);
      const kept = (await team.cached("suzuka-circuit", lap.car_id))!;
      assert.deepEqual(
        {
          driver: kept.driver,
          mine: kept.mine,
          id: kept.hubLapId,
          ms: kept.timeMs,
          track: kept.trackName,
        },
        { driver: "alice", mine: false, id: "7", ms: 98_000, track: "Suzuka Circuit" },
      );
      assert.deepEqual(kept.samples.pos_x, lap.samples.pos_x);
      assert.deepEqual(kept.samples.t, lap.samples.t);
      // Unchanged: only the board is asked for.
      assert.equal(await team.refresh("suzuka-circuit", lap.car_id), false);
      assert.deepEqual(hub.state.requests, [
        `/api/leaderboard?circuit=suzuka-circuit&car=${lap.car_id}`,
        `/api/leaderboard?circuit=suzuka-circuit&car=${lap.car_id}`,
        "/api/me",
        "/api/laps/7",
        `/api/leaderboard?circuit=suzuka-circuit&car=${lap.car_id}`,
      ]);
      // The token's own driver takes the lead: the team's best is now yours.
      hub.state.board = { driver: "bob", best_ms: 97_500, lap_id: 8 };
      assert.equal(await team.refresh("suzuka-circuit", lap.car_id), true);
      assert.equal((await team.cached("suzuka-circuit", lap.car_id))?.mine, true);
      hub.state.board = { driver: "alice", best_ms: 98_000, lap_id: 7 };
      assert.equal(await team.refresh("suzuka-circuit", lap.car_id), true);
      // An answer of other rules keeps what was kept, and says why once.
      hub.state.nonsense = true;
      assert.equal(await team.refresh("suzuka-circuit", lap.car_id), false);
      assert.equal(await team.refresh("suzuka-circuit", lap.car_id), false);
      assert.equal((await team.cached("suzuka-circuit", lap.car_id))?.hubLapId, "7");
      assert.equal(deps.log.warnings.length, 1, deps.log.warnings.join("\n"));
      assert.match(deps.log.warnings[0], /rows\.0\.best_ms/);
    } finally {
      await hub.server.shutdown();
    }
    // A restart with the hub gone: the kept lap is read from the store, the hub's absence logged.
    const offline = new TeamReference(deps, { url: hub.url, token: TOKEN });
    assert.equal(await offline.refresh("suzuka-circuit", lap.car_id), false);
    assert.equal((await offline.cached("suzuka-circuit", lap.car_id))?.driver, "alice");
    assert.equal(await offline.cached("suzuka-circuit", 1), null);
  },
});

Deno.test({
  name: "--reference team: the gap runs against the team's best once named, saying whose; " +
    "the driver's own best while the hub is down and nothing is kept",
  ignore: noFixtures,
  async fn() {
    await using kv = await Deno.openKv(":memory:");
    const { lap, file } = await suzukaBest(kv);
    const hub = fakeHub(lap.car_id, file);
    hub.state.board = { driver: "alice", best_ms: 98_000, lap_id: 7 };
    try {
      const lap1 = (await driveTeam(kv, hub.url)).lap1;
      const last = lap1.at(-1)!;
      assert.deepEqual(
        { ...last.delta, delta_ms: null, predicted_lap_ms: null },
        {
          delta_ms: null,
          predicted_lap_ms: null,
          reference_lap_id: null,
          reference_lap_ms: 98_000,
          reference_label: "alice's best · Suzuka Circuit 1:38.000",
          reference_driver: "alice",
        },
      );
      assert.notEqual(last.delta.delta_ms, null);
      // Brake markers come from the team's lap too.
      assert.ok(lap1.some((f) => f.delta.reference_driver === "alice" && f.next_brake !== null));
    } finally {
      await hub.server.shutdown();
    }
    // Another store, the hub gone: own best, said so.
    await using fresh = await Deno.openKv(":memory:");
    await suzukaBest(fresh);
    const lap1 = (await driveTeam(fresh, hub.url)).lap1;
    assert.equal(lap1.at(-1)!.delta.reference_label, "your best · Suzuka Circuit 1:39.036");
    assert.equal(lap1.at(-1)!.delta.reference_driver, null);
  },
});
