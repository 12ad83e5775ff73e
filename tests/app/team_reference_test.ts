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
import { createApp } from "../../src/app/create_app.ts";
import type { LiveFrame } from "../../src/app/live/live_frame.ts";
import type { LiveFrameService } from "../../src/app/live/live_frames.ts";
import { TeamReference } from "../../src/app/hub_link/team_reference.ts";
import type { Log } from "../../src/app/log.ts";
import { defaultReferenceIndex } from "../../src/core/identify/reference_index.ts";
import { toLapFile } from "../../src/core/laps/lap_file.ts";
import { finishRecordedLap } from "../../src/core/laps/recorded_lap.ts";
import { getLap, saveLap } from "../../src/storage/laps.ts";
import { noFixtures } from "../_fixtures.ts";
import { testSession } from "../_stored_laps.ts";
import { captureFrames, recordLaps } from "../core/identify/_laps.ts";

const SUZUKA = "gt7/suzuka-full-lap.A.gt7.gz";
const TOKEN = "alice-token";

interface Board {
  driver: string;
  best_ms: number;
  lap_id: number;
}

/** A fake hub of one circuit and car: the board's top row and the lap file it names. */
function fakeHub(car: number, file: unknown) {
  const state = { board: null as Board | null, requests: [] as string[], nonsense: false };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    state.requests.push(url.pathname + url.search);
    if (req.headers.get("authorization") !== `Bearer ${TOKEN}`) {
      return Response.json({ title: "Unauthorized" }, { status: 401 });
    }
    if (url.pathname === "/api/me") return Response.json({ name: "bob", admin: false });
    if (url.pathname === "/api/leaderboard") {
      if (state.nonsense) return Response.json({ rows: [{ driver: "alice" }] });
      const rows = state.board ? [{ ...state.board, car_id: car, gap_ms: 0 }] : [];
      return Response.json({ circuit: url.searchParams.get("circuit"), car_id: car, rows });
    }
    if (url.pathname === `/api/laps/${state.board?.lap_id}`) return Response.json(file);
    return Response.json({ title: "Not Found" }, { status: 404 });
  });
  return { state, server, url: `http://127.0.0.1:${server.addr.port}` };
}

/** A log that keeps its warnings. */
function keptLog(): Log & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    error: (m: string) => warnings.push(m),
    warn: (m: string) => warnings.push(m),
  } as Log & { warnings: string[] };
}

/** Suzuka's recorded lap stored as the best of a session named "Suzuka Circuit", and its file. */
async function suzukaBest(kv: Deno.Kv) {
  const recorded = recordLaps(captureFrames(SUZUKA))[0];
  const session = await testSession(kv, "Suzuka Circuit", recorded.car_id);
  const saved = await saveLap(kv, session.id, finishRecordedLap(recorded, "2026-11-24T10:00:00Z"));
  const lap = (await getLap(kv, saved.lap.id))!;
  return { lap, file: toLapFile(lap, { track_name: "Suzuka Circuit", car_name: "" }) };
}

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

/** Drives Suzuka every third frame into an app with `--reference team` at `hub`; the 20 Hz frames. */
async function driveTeam(kv: Deno.Kv, hub: string): Promise<LiveFrame[]> {
  const app = await createApp({
    kv,
    references: defaultReferenceIndex(),
    teamReference: { link: { url: hub, token: TOKEN }, options: { timeoutMs: 2000 } },
  });
  const frames = app.frames as LiveFrameService;
  const seen: LiveFrame[] = [];
  frames.subscribe(20, (f) => seen.push(f));
  const drive = captureFrames(SUZUKA).filter((_, i) => i % 3 === 0);
  for (const [i, frame] of drive.entries()) {
    app.live.ingest(frame);
    if (i % 10 === 0) {
      await app.live.flush();
      await frames.settled();
    }
  }
  await app.shutdown();
  return seen.filter((f) => f.lap === 1);
}

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
      const lap1 = await driveTeam(kv, hub.url);
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
    const lap1 = await driveTeam(fresh, hub.url);
    assert.equal(lap1.at(-1)!.delta.reference_label, "your best · Suzuka Circuit 1:39.036");
    assert.equal(lap1.at(-1)!.delta.reference_driver, null);
  },
});
