/**
 * GET /api/strategy over the demo's drive (the synthetic circuit of seed 7,
 * five timed laps: what `demo` replays), fed in process, against numbers
 * worked out by hand from the stored laps; and its precise 400s.
 */
import { strict as assert } from "node:assert";
import type { RaceStrategy } from "../../src/app/live/live_frame.ts";
import type { LiveFrameService } from "../../src/app/live/live_frames.ts";
import type { LapSummary } from "../../src/core/laps/lap.ts";
import { syntheticFrames } from "../../src/core/synthetic/drive.ts";
import { withServer } from "./_server.ts";

/** The demo's laps as stored: number, time, fuel at the start and at the end. */
const DEMO_LAPS = [
  [1, 93_717, 70.20665931372865, 66.80629558827314],
  [2, 93_800, 66.80627058827315, 63.405997549086194],
  [3, 93_517, 63.405972549086194, 60.00957549026149],
  [4, 93_383, 60.00955049026149, 56.614480882417304],
  [5, 93_300, 56.6144558824173, 53.22603088241614],
] as const;

/**
 * Where the drive ends: lap 6, 5,083 ms into it by the game's lap clock,
 * 53.152952777840795 l on board (53.153 to the litre's thousandth).
 */
const END = { lap: 6, clockMs: 5_083, fuel: 53.153 };

async function drive(
  fn: (get: (q: string) => Promise<Response>) => Promise<void>,
): Promise<void> {
  await withServer(async (url, app) => {
    for (const f of syntheticFrames({ seed: 7, laps: 5 })) app.live.ingest(f);
    await app.live.flush();
    const session = app.live.session!;
    const laps: LapSummary[] = await app.sessions.laps(session.id);
    assert.deepEqual(
      laps.map((l) => [l.number, l.time_ms, l.fuel_start, l.fuel_end]),
      DEMO_LAPS,
    );
    assert.ok(laps.every((l) => l.complete));
    const frame = app.frames.latest()!;
    assert.deepEqual([frame.lap, frame.lap_clock_ms, frame.fuel], [END.lap, END.clockMs, END.fuel]);
    await fn((q) => fetch(`${url}/api/strategy?${q}`));
    await (app.frames as LiveFrameService).settled();
  });
}

// By hand, from DEMO_LAPS (every lap green: complete, no refuel, lap 0 is never stored):
// fuel used  1: 70.20665931372865 - 66.80629558827314  = 3.400363725455506
//            2: 66.80627058827315 - 63.405997549086194 = 3.4002730391869562
//            3: 63.405972549086194 - 60.00957549026149 = 3.3963970588247037
//            4: 60.00955049026149 - 56.614480882417304 = 3.395069607844185
//            5: 56.6144558824173 - 53.22603088241614   = 3.3884250000011633
// median of 5 (sorted 3.38843, 3.39507, 3.39640, 3.40027, 3.40036) = lap 3's 3.39640 -> 3.396 l
// lap times sorted 93,300 93,383 93,517 93,717 93,800 -> median 93,517 ms
// laps to empty: 53.153 / 3.3963970588247037 = 15.6498... -> 15.65
// minutes to empty: 15.6498 x 93,517 ms / 60,000 = 24.392... -> 24.39
// driven so far: 5 laps + 5,083 / 93,517 = 5.05435 laps
const FUEL = {
  laps_used: 5,
  fuel_per_lap: 3.396,
  lap_time_ms: 93_517,
  laps_to_empty: 15.65,
  minutes_to_empty: 24.39,
  fuel: 53.153,
};

Deno.test("strategy over the demo's laps for races in laps and in minutes, by hand", async () => {
  await drive(async (get) => {
    // 25 laps: 25 - 5.05435 = 19.94565 -> 19.95 to go; 15.65 laps of fuel < 19.95: a stop,
    // when the fuel runs out at 5.05435 + 15.6498 = 20.704 laps: pit at the end of lap 20.
    assert.deepEqual(
      await (await get("race_laps=25")).json(),
      {
        ...FUEL,
        race: { laps: 25, minutes: null },
        laps_remaining: 19.95,
        finishes: false,
        pit_on_lap: 20,
      } satisfies RaceStrategy,
    );
    // 20 laps: 20 - 5.05435 = 14.94565 -> 14.95 to go; 15.65 >= 14.95: it finishes.
    assert.deepEqual(await (await get("race_laps=20")).json(), {
      ...FUEL,
      race: { laps: 20, minutes: null },
      laps_remaining: 14.95,
      finishes: true,
      pit_on_lap: null,
    });
    // 40 minutes: 2,400,000 / 93,517 = 25.66 laps -> the 26th is finished: 26 laps,
    // 26 - 5.05435 = 20.95 to go: pit on lap 20, as above.
    assert.deepEqual(await (await get("race_minutes=40")).json(), {
      ...FUEL,
      race: { laps: null, minutes: 40 },
      laps_remaining: 20.95,
      finishes: false,
      pit_on_lap: 20,
    });
    // 30 minutes: 1,800,000 / 93,517 = 19.25 -> 20 laps, 14.95 to go: it finishes.
    const thirty = await (await get("race_minutes=30")).json();
    assert.deepEqual([thirty.laps_remaining, thirty.finishes, thirty.pit_on_lap], [
      14.95,
      true,
      null,
    ]);
  });
});

Deno.test("GET /api/strategy refuses a race that is not exactly one length, whole and in range", async () => {
  await drive(async (get) => {
    const cases: [string, string, RegExp][] = [
      ["", "race_laps", /is required: give exactly one of race_laps and race_minutes/],
      ["race_laps=10&race_minutes=30", "race_minutes", /must not be given with race_laps/],
      ["race_laps=0", "race_laps", /must be a whole number from 1 to 1000/],
      ["race_laps=1001", "race_laps", /must be a whole number from 1 to 1000/],
      ["race_laps=2.5", "race_laps", /must be a whole number from 1 to 1000/],
      ["race_laps=-3", "race_laps", /must be a whole number from 1 to 1000/],
      ["race_minutes=0", "race_minutes", /must be a whole number from 1 to 1440/],
      ["race_minutes=1441", "race_minutes", /must be a whole number from 1 to 1440/],
      ["race_minutes=an+hour", "race_minutes", /must be a whole number from 1 to 1440/],
      ["laps=10", "laps", /is not a parameter of this request/],
    ];
    for (const [query, path, rule] of cases) {
      const res = await get(query);
      assert.equal(res.status, 400, query);
      assert.equal(res.headers.get("content-type"), "application/problem+json", query);
      const body = await res.json();
      assert.equal(body.errors.length, 1, query);
      assert.equal(body.errors[0].path, path, query);
      assert.match(body.errors[0].message, rule, query);
    }
  });
});

Deno.test("without telemetry the strategy has no laps: every derived figure is null", async () => {
  await withServer(async (url) => {
    const body = await (await fetch(`${url}/api/strategy?race_laps=10`)).json();
    assert.deepEqual(body, {
      laps_used: 0,
      fuel_per_lap: null,
      lap_time_ms: null,
      laps_to_empty: null,
      minutes_to_empty: null,
      race: { laps: 10, minutes: null },
      laps_remaining: null,
      fuel: null,
      finishes: null,
      pit_on_lap: null,
    });
  });
});
