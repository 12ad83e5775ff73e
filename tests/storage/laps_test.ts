import { strict as assert } from "node:assert";
import { createSession, getSession, listSessions } from "../../src/storage/sessions.ts";
import {
  getLap,
  listLaps,
  type NewLap,
  saveLap,
  saveLaps,
  sweepOrphanSamples,
} from "../../src/storage/laps.ts";
import { writeBlob } from "../../src/storage/blob.ts";
import { decodeSamples, encodeSamples } from "../../src/storage/lap_codec.ts";
import { sourceId } from "../../src/storage/source_id.ts";
import type { LapSamples } from "../../src/core/laps/columns.ts";
import { COVERAGE_FIELDS } from "../../src/core/laps/coverage.ts";

function samples(n: number, seed = 1): LapSamples {
  const col = (f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));
  return {
    t: col((i) => Math.round(i / 60 * 1e4) / 1e4),
    dist: col((i) => i * 0.1 * seed),
    speed: col((i) => 100 + Math.sin(i) * 0.1),
    throttle: col(() => 100),
    brake: col(() => 0),
    coast: col(() => 0),
    tire_slip: col(() => 1.0001),
    body_height: col(() => 80.5),
    pos_x: col((i) => i * 0.123456789),
    pos_z: col((i) => -i / 3),
    fuel: col((i) => 100 - i * 1e-7),
  };
}

/** A lap of `n` samples; complete unless `missing` samples were lost in one gap. */
function newLap(n: number, time: number, span = 1, missing = 0): NewLap {
  const s = samples(n, span);
  return {
    samples_expected: n + missing,
    samples_received: n,
    samples_filled: 0,
    samples_missing: missing,
    longest_gap_packets: missing,
    complete: missing === 0,
    number: 1,
    time_ms: time,
    finished_at: "2026-11-21T10:00:00.000Z",
    car_id: 3315,
    car_category: "",
    fuel_start: 100,
    fuel_end: 99,
    tod_ms: 0,
    off_survey_count: -1,
    salvaged: false,
    race_position: -1,
    frames_dropped: 0,
    imported: false,
    event_counts: {},
    events: [],
    gearing: null,
    max_water_temp: 0,
    max_oil_temp: 0,
    min_oil_pressure: -1,
    total_ticks: n,
    fuel_consumed: 1,
    full_throttle_pct: 100,
    full_brake_pct: 0,
    coasting_pct: 0,
    tire_spin_pct: 0,
    max_speed: 100,
    min_body_height: 80.5,
    tcs_active_pct: 0,
    asm_active_pct: 0,
    off_track_count: -1,
    clean_lap: null,
    samples: s,
  };
}

Deno.test("sample codec round-trips bit for bit", () => {
  const s = samples(1000);
  s.surface = Array.from({ length: 1000 }, (_, i) => i & 0xffff);
  const back = decodeSamples(encodeSamples(s));
  assert.deepEqual(back, s);
  for (let i = 0; i < 1000; i++) assert.ok(Object.is(back.pos_x[i], s.pos_x[i]));
});

Deno.test("sample codec decodes a Node Buffer view at an offset of a shared pool (as postgres.js answers a bytea)", async () => {
  const { Buffer } = await import("node:buffer");
  const s = samples(50);
  const bytes = encodeSamples(s);
  // A pool holding other bytes first, and the samples as a view into it, as Buffer pools do.
  const pool = Buffer.alloc(bytes.byteLength + 13, 0x5a);
  pool.set(bytes, 13);
  assert.deepEqual(decodeSamples(pool.subarray(13)), decodeSamples(bytes));
});

Deno.test("a long lap is chunked under the value limit and reads back equal", async () => {
  using kv = await Deno.openKv(":memory:");
  const session = await createSession(kv, {
    kind: "live",
    started_at: "2026-11-21T10:00:00.000Z",
    car_id: 3315,
    car_name: "x",
  });
  const lap = newLap(60 * 60 * 30, 90_000); // 30 minutes of samples
  const { lap: summary, session: returned } = await saveLap(kv, session.id, lap);
  let chunks = 0;
  for await (const e of kv.list<Uint8Array>({ prefix: ["lap_samples", summary.id] })) {
    chunks++;
    assert.ok(e.value.byteLength <= 60_000);
  }
  assert.ok(chunks > 1, `expected several chunks, got ${chunks}`);
  const back = await getLap(kv, summary.id);
  assert.deepEqual(back?.samples, lap.samples);
  const stored = await getSession(kv, session.id);
  assert.equal(stored?.lap_count, 1);
  assert.equal(stored?.best_lap_time_ms, 90_000);
  // The session saveLap returns is the one its commit wrote.
  assert.deepEqual(returned, stored);
});

Deno.test("the span guard excludes a short lap from the best and re-judges siblings", async () => {
  using kv = await Deno.openKv(":memory:");
  const s = await createSession(kv, { kind: "live", started_at: "t", car_id: 1, car_name: "c" });
  await saveLap(kv, s.id, newLap(700, 60_000, 1));
  await saveLap(kv, s.id, newLap(700, 50_000, 0.5)); // half the distance: a cut
  await saveLap(kv, s.id, newLap(700, 59_000, 1));
  const laps = await listLaps(kv, s.id);
  assert.deepEqual(laps.map((l) => l.counts_for_best), [true, false, true]);
  assert.equal((await getSession(kv, s.id))?.best_lap_time_ms, 59_000);
});

Deno.test("an incomplete lap is stored but never counts for best, even when fastest", async () => {
  using kv = await Deno.openKv(":memory:");
  const s = await createSession(kv, { kind: "live", started_at: "t", car_id: 1, car_name: "c" });
  await saveLap(kv, s.id, newLap(700, 60_000));
  const { lap: holed } = await saveLap(kv, s.id, newLap(700, 50_000, 1, 120));
  await saveLap(kv, s.id, newLap(700, 59_000));
  assert.equal(holed.complete, false);
  assert.equal(holed.counts_for_best, false);
  const laps = await listLaps(kv, s.id);
  assert.deepEqual(laps.map((l) => [l.complete, l.counts_for_best]), [
    [true, true],
    [false, false],
    [true, true],
  ]);
  assert.deepEqual(laps.map((l) => l.samples_missing), [0, 120, 0]);
  const session = await getSession(kv, s.id);
  assert.equal(session?.best_lap_time_ms, 59_000);
  assert.equal(session?.lap_count, 3);
});

Deno.test("the span guard never sees an incomplete lap", async () => {
  using kv = await Deno.openKv(":memory:");
  const s = await createSession(kv, { kind: "live", started_at: "t", car_id: 1, car_name: "c" });
  await saveLap(kv, s.id, newLap(700, 60_000, 1));
  // Distance extrapolated over a hole can overshoot: judged, it would push the whole lap out.
  await saveLap(kv, s.id, newLap(700, 61_000, 2, 500));
  const laps = await listLaps(kv, s.id);
  assert.deepEqual(laps.map((l) => l.counts_for_best), [true, false]);
  assert.equal((await getSession(kv, s.id))?.best_lap_time_ms, 60_000);
});

Deno.test("a session of incomplete laps only has no best", async () => {
  using kv = await Deno.openKv(":memory:");
  const s = await createSession(kv, { kind: "live", started_at: "t", car_id: 1, car_name: "c" });
  await saveLap(kv, s.id, newLap(700, 60_000, 1, 30));
  assert.equal((await getSession(kv, s.id))?.best_lap_time_ms, null);
});

Deno.test("a lap stored before laps carried coverage is judged from its count and time", async () => {
  using kv = await Deno.openKv(":memory:");
  const s = await createSession(kv, { kind: "live", started_at: "t", car_id: 1, car_name: "c" });
  // 700 samples: whole for 11,667 ms (700.02 ticks), 300 short for 16,667 ms.
  const { lap: whole } = await saveLap(kv, s.id, newLap(700, 11_667));
  const { lap: short } = await saveLap(kv, s.id, newLap(700, 16_667));
  for (const id of [whole.id, short.id]) {
    const entry = await kv.get<Record<string, unknown>>(["lap", id]);
    const legacy: Record<string, unknown> = { ...entry.value!, counts_for_best: true };
    for (const f of COVERAGE_FIELDS) delete legacy[f];
    await kv.set(["lap", id], legacy);
  }
  const laps = await listLaps(kv, s.id);
  assert.deepEqual(laps.map((l) => COVERAGE_FIELDS.map((f) => l[f])), [
    [700, 700, 0, 0, -1, true],
    [1000, 700, 0, 300, -1, false],
  ]);
  assert.deepEqual(laps.map((l) => l.counts_for_best), [true, false]);
  assert.equal((await getLap(kv, short.id))?.complete, false);
  // The next lap stored re-judges the session with the upgraded records.
  await saveLap(kv, s.id, newLap(700, 11_700));
  assert.equal((await getSession(kv, s.id))?.best_lap_time_ms, 11_667);
});

Deno.test("chunks written without their lap are invisible and swept", async () => {
  using kv = await Deno.openKv(":memory:");
  // What a crash between writing chunks and committing the lap leaves behind.
  await writeBlob(kv, ["lap_samples", 77], encodeSamples(samples(5000)));
  assert.equal(await getLap(kv, 77), null);
  assert.equal(await sweepOrphanSamples(kv), 1);
  let left = 0;
  for await (const _ of kv.list({ prefix: ["lap_samples"] })) left++;
  assert.equal(left, 0);
});

Deno.test("concurrent laps into one session are all counted", async () => {
  using kv = await Deno.openKv(":memory:");
  const s = await createSession(kv, { kind: "live", started_at: "t", car_id: 1, car_name: "c" });
  await Promise.all(
    Array.from({ length: 8 }, (_, i) => saveLap(kv, s.id, newLap(650, 60_000 + i))),
  );
  const stored = await getSession(kv, s.id);
  assert.equal(stored?.lap_count, 8);
  assert.equal(stored?.best_lap_time_ms, 60_000);
  assert.equal((await listLaps(kv, s.id)).length, 8);
  assert.equal((await listSessions(kv)).length, 1);
});

Deno.test("the source id is created once, kept, and valid", async () => {
  using kv = await Deno.openKv(":memory:");
  const [a, b] = await Promise.all([sourceId(kv), sourceId(kv)]);
  assert.match(a, /^[0-9a-f]{12}$/);
  assert.equal(a, b);
  assert.equal(await sourceId(kv), a);
});

Deno.test("a store on disk keeps laps across a restart", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { openStore } = await import("../../src/storage/kv.ts");
    let id: number;
    {
      const kv = await openStore(dir);
      const s = await createSession(kv, {
        kind: "live",
        started_at: "t",
        car_id: 1,
        car_name: "c",
      });
      id = (await saveLap(kv, s.id, newLap(800, 61_000))).lap.id;
      kv.close();
    }
    const kv = await openStore(dir);
    const lap = await getLap(kv, id);
    assert.equal(lap?.time_ms, 61_000);
    assert.equal(lap?.samples.t.length, 800);
    kv.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("saveLaps stores 101 laps in order over more than one commit, each run whole, read back equal", async () => {
  using kv = await Deno.openKv(":memory:");
  const session = await createSession(kv, {
    kind: "imported",
    started_at: "2026-11-21T09:00:00.000Z",
    car_id: 3315,
    car_name: "x",
  });
  // 101 laps: more than the 100 one commit takes, so the last lap goes in a second commit.
  const laps = Array.from({ length: 101 }, (_, i) => ({
    ...newLap(20, 90_000 + i, 1, i === 7 ? 3 : 0),
    number: i + 1,
    imported: true,
  }));
  laps[40].time_ms = 80_000;
  laps[7].time_ms = 70_000; // fastest, but incomplete: never the best
  const saved = await saveLaps(kv, session.id, laps, "2026-11-21T11:00:00.000Z", { level: 1 });
  assert.deepEqual(saved.laps.map((l) => l.number), laps.map((l) => l.number));
  const first = saved.laps[0].id;
  assert.deepEqual(saved.laps.map((l) => l.id), laps.map((_, i) => first + i));
  assert.equal(saved.session.lap_count, 101);
  assert.equal(saved.session.best_lap_time_ms, 80_000);
  assert.equal(saved.session.updated_at, "2026-11-21T11:00:00.000Z");
  assert.deepEqual(await getSession(kv, session.id), saved.session);
  assert.deepEqual(await listLaps(kv, session.id), saved.laps);
  assert.deepEqual(saved.laps.filter((l) => !l.counts_for_best).map((l) => l.number), [8]);
  // Level 1 chunks read back bit for bit, like the default level's.
  assert.deepEqual((await getLap(kv, saved.laps[100].id))?.samples, laps[100].samples);
});

Deno.test("saveLaps into a session that is gone stores nothing and leaves no chunks", async () => {
  using kv = await Deno.openKv(":memory:");
  await assert.rejects(
    saveLaps(kv, 99, [newLap(20, 90_000), newLap(20, 91_000)]),
    /session 99 does not exist/,
  );
  assert.equal((await Array.fromAsync(kv.list({ prefix: ["lap_samples"] }))).length, 0);
  assert.equal((await Array.fromAsync(kv.list({ prefix: ["lap"] }))).length, 0);
});
