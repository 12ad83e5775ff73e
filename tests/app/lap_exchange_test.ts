/**
 * Lap import at the application level, over an in-memory store: an imported
 * lap always gets a session of its own, version 1 files, and that a
 * rejected import leaves the store exactly as it was.
 */
import { strict as assert } from "node:assert";
import { noFixtures, readGzFixture } from "../_fixtures.ts";
import { type App, createApp } from "../../src/app/create_app.ts";
import { parseCapture } from "../../src/core/gt7/capture.ts";
import { decodeFrame } from "../../src/core/gt7/decode.ts";
import type { Frame } from "../../src/core/gt7/frame.ts";
import { V1_COLUMNS } from "../../src/core/laps/columns.ts";
import type { Lap } from "../../src/core/laps/lap.ts";
import { LAP_FILE_FORMAT, toLapFile } from "../../src/core/laps/lap_file.ts";
import { LapRecorder } from "../../src/core/laps/recorder.ts";
import { finishRecordedLap } from "../../src/core/laps/recorded_lap.ts";
import { ImportRejected } from "../../src/core/errors.ts";
import { getLap, listLaps } from "../../src/storage/laps.ts";
import { getSession, listSessions } from "../../src/storage/sessions.ts";
import { minimalLapFile } from "../_lap_files.ts";

const NOW = new Date("2026-11-21T12:00:00.000Z");

/** Packet index of the Suzuka capture's 1 -> 2 lap change (fixtures README). */
const SUZUKA_LAP_END = 6317;

let suzukaFrames: Frame[] | undefined;
function suzuka(): Frame[] {
  suzukaFrames ??= parseCapture(readGzFixture("gt7/suzuka-full-lap.A.gt7.gz")).packets.map(
    decodeFrame,
  );
  return suzukaFrames;
}

/** The Suzuka lap as a stored lap would be, ids made up. */
function suzukaLap(): Lap {
  const rec = new LapRecorder();
  for (const f of suzuka()) {
    for (const e of rec.push(f)) {
      if (e.type === "lap") {
        const done = finishRecordedLap(e.lap, "2026-11-20T18:30:00.000Z");
        return { ...done, id: 41, session_id: 7, counts_for_best: true };
      }
    }
  }
  throw new Error("no lap in the Suzuka capture");
}

/** A lap file as it arrives: JSON text parsed back, sharing nothing with its source. */
function fileOf(lap: Lap): unknown {
  return JSON.parse(JSON.stringify(toLapFile(lap)));
}

async function withApp(fn: (app: App, kv: Deno.Kv) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    const app = await createApp({ kv, now: () => NOW });
    await fn(app, kv);
    await app.live.flush();
  } finally {
    kv.close();
  }
}

Deno.test({
  name: "an import while a live session records lands in its own imported session",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app, kv) => {
      for (const f of suzuka().slice(0, SUZUKA_LAP_END + 30)) app.live.ingest(f);
      await app.live.flush();
      const live = app.live.session!;
      assert.equal(live.kind, "live");
      assert.equal(live.lap_count, 1);
      assert.equal(live.best_lap_time_ms, 99036);

      // A faster lap from elsewhere (made up from the same one), imported mid-session.
      const [liveLap] = await listLaps(kv, live.id);
      const file = JSON.parse(JSON.stringify(await app.laps.exportFile(liveLap.id)));
      file.lap.time_ms = 99020;
      const result = await app.laps.importFile(file);
      assert.equal(result.created_session, true);
      assert.equal(result.session.kind, "imported");
      assert.notEqual(result.session.id, live.id);
      assert.equal(result.session.lap_count, 1);
      assert.equal(result.session.best_lap_time_ms, 99020);
      assert.equal(result.lap.session_id, result.session.id);
      assert.equal(result.lap.imported, true);
      assert.equal(result.lap.complete, true);

      // The live session is untouched: its lap count and best, stored and in memory.
      assert.deepEqual(await getSession(kv, live.id), live);
      assert.deepEqual(app.live.session, live);
      assert.deepEqual((await listLaps(kv, live.id)).map((l) => l.id), [liveLap.id]);
      // Recording goes on into the live session, not the imported one.
      for (const f of suzuka().slice(SUZUKA_LAP_END + 30)) app.live.ingest(f);
      await app.live.flush();
      assert.equal(app.live.session?.id, live.id);
      assert.deepEqual((await listSessions(kv)).map((s) => s.kind), ["imported", "live"]);

      const stored = (await getLap(kv, result.lap.id))!;
      const original = (await getLap(kv, liveLap.id))!;
      assert.equal(original.imported, false);
      assert.deepEqual(stored.samples, original.samples);
      assert.deepEqual(stored.events, original.events);
    });
  },
});

Deno.test({
  name: "an import while telemetry flows but before the first lap gets its own session too",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app, kv) => {
      // Past the 0 -> 1 change at packet 375, well short of the lap's end.
      for (const f of suzuka().slice(0, 1000)) app.live.ingest(f);
      await app.live.flush();
      assert.equal((await listSessions(kv)).length, 0, "no lap yet, so no session stored");

      const result = await app.laps.importFile(fileOf(suzukaLap()));
      assert.equal(result.created_session, true);
      assert.equal(result.session.kind, "imported");
      assert.equal(app.live.session, null, "the import made no live session");
      // The lap being driven then lands in a live session of its own.
      for (const f of suzuka().slice(1000, SUZUKA_LAP_END + 30)) app.live.ingest(f);
      await app.live.flush();
      const live = app.live.session!;
      assert.equal(live.kind, "live");
      assert.notEqual(live.id, result.session.id);
      assert.equal(live.lap_count, 1);
      assert.equal((await getSession(kv, result.session.id))?.lap_count, 1);
    });
  },
});

Deno.test({
  name: "with no telemetry, each import gets its own imported session",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app, kv) => {
      const file = fileOf(suzukaLap());
      const first = await app.laps.importFile(file);
      const second = await app.laps.importFile(file);
      for (const r of [first, second]) {
        assert.equal(r.created_session, true);
        assert.equal(r.session.kind, "imported");
        assert.equal(r.session.lap_count, 1);
        assert.equal(r.session.car_id, 3315);
        assert.equal(r.session.car_name, "McLaren VGT");
        assert.equal(r.session.started_at, NOW.toISOString());
        assert.equal(r.lap.session_id, r.session.id);
        assert.equal(r.lap.imported, true);
      }
      assert.notEqual(first.session.id, second.session.id);
      assert.notEqual(first.lap.id, second.lap.id);
      const sessions = await listSessions(kv);
      assert.deepEqual(sessions.map((s) => s.kind), ["imported", "imported"]);
      assert.equal(await app.live.activeSession(), null, "an imported session is never active");
    });
  },
});

Deno.test({
  name: "a version 1 file imports with oil pressure -1, no gearing and no events",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app, kv) => {
      const lap = suzukaLap();
      const v1Fields = [
        "id",
        "session_id",
        "number",
        "time_ms",
        "finished_at",
        "car_id",
        "fuel_start",
        "fuel_end",
        "fuel_consumed",
        "full_throttle_pct",
        "full_brake_pct",
        "coasting_pct",
        "tire_spin_pct",
        "max_speed",
        "min_body_height",
        "total_ticks",
      ] as const;
      const v1 = {
        format: LAP_FILE_FORMAT,
        version: 1,
        lap: {
          ...Object.fromEntries(v1Fields.map((f) => [f, lap[f]])),
          samples: Object.fromEntries(V1_COLUMNS.map((c) => [c, lap.samples[c]])),
        },
      };
      assert.equal(Object.keys(v1.lap.samples).length, 15);
      const result = await app.laps.importFile(JSON.parse(JSON.stringify(v1)));
      const stored = (await getLap(kv, result.lap.id))!;

      assert.equal(stored.min_oil_pressure, -1);
      assert.equal(stored.gearing, null);
      assert.deepEqual(stored.events, []);
      assert.deepEqual(stored.event_counts, {});
      assert.equal(stored.max_water_temp, 0);
      assert.equal(stored.max_oil_temp, 0);
      assert.equal(stored.off_track_count, -1);
      assert.equal(stored.clean_lap, null);
      assert.equal(stored.tod_ms, -1);
      assert.equal(stored.car_category, "");
      assert.deepEqual(Object.keys(stored.samples).sort(), [...V1_COLUMNS].sort());
      for (const c of V1_COLUMNS) assert.deepEqual(stored.samples[c], lap.samples[c], c);

      // What the file carried, and what is recomputed from the 15 columns alike.
      assert.equal(stored.time_ms, 99036);
      assert.equal(stored.finished_at, "2026-11-20T18:30:00.000Z");
      assert.equal(stored.total_ticks, 5942);
      // Coverage is computed for a version 1 file: the filled ticks it cannot tell apart count
      // as received.
      assert.deepEqual(
        [stored.samples_expected, stored.samples_received, stored.samples_missing, stored.complete],
        [5942, 5942, 0, true],
      );
      for (
        const f of [
          "fuel_consumed",
          "full_throttle_pct",
          "full_brake_pct",
          "coasting_pct",
          "tire_spin_pct",
          "max_speed",
          "min_body_height",
        ] as const
      ) {
        assert.equal(stored[f], lap[f], f);
      }
    });
  },
});

interface KvRow {
  key: Deno.KvKey;
  value: unknown;
  versionstamp: string;
}

async function snapshot(kv: Deno.Kv): Promise<KvRow[]> {
  const rows: KvRow[] = [];
  for await (const e of kv.list({ prefix: [] })) {
    rows.push({ key: e.key, value: e.value, versionstamp: e.versionstamp });
  }
  return rows;
}

/** Rejected files: each must throw ImportRejected before anything is written. */
function rejectedFiles(good: Record<string, unknown>): [string, unknown][] {
  const lap = good.lap as Record<string, unknown>;
  const samples = lap.samples as Record<string, number[]>;
  const withSamples = (change: Record<string, unknown>) => ({
    ...good,
    lap: {
      ...lap,
      samples: Object.fromEntries(
        Object.entries({ ...samples, ...change }).filter(([, v]) => v !== undefined),
      ),
    },
  });
  const n = samples.t.length;
  return [
    ["not an object", [good]],
    ["wrong format", { ...good, format: "gt7-datalogger-lap" }],
    ["newer version", { ...good, version: 3 }],
    ["version 0", { ...good, version: 0 }],
    ["no lap", { format: good.format, version: good.version }],
    ["time_ms 0", { ...good, lap: { ...lap, time_ms: 0 } }],
    ["samples as a list", { ...good, lap: { ...lap, samples: [samples.t] } }],
    ["missing dist", withSamples({ dist: undefined })],
    ["ragged", withSamples({ speed: samples.speed.slice(1) })],
    ["a string", withSamples({ rpm: ["7000", ...samples.rpm.slice(1)] })],
    ["Infinity", withSamples({ fuel: [...samples.fuel.slice(0, n - 1), Infinity] })],
    ["NaN", withSamples({ sus_fl: [NaN, ...samples.sus_fl.slice(1)] })],
    [
      "over the sample cap",
      withSamples(Object.fromEntries(
        Object.keys(samples).map((c) => [c, new Array(120_001).fill(0)]),
      )),
    ],
  ];
}

Deno.test({
  name: "a rejected import leaves the store byte for byte unchanged",
  ignore: noFixtures,
  async fn() {
    const good = fileOf(suzukaLap()) as Record<string, unknown>;
    const stages: [string, (app: App) => Promise<void>][] = [
      ["an empty store, no telemetry", () => Promise.resolve()],
      ["telemetry flowing, no lap yet", async (app) => {
        for (const f of suzuka().slice(0, 1000)) app.live.ingest(f);
        await app.live.flush();
      }],
      ["a live session with a lap and an imported one", async (app) => {
        for (const f of suzuka().slice(0, SUZUKA_LAP_END + 30)) app.live.ingest(f);
        await app.live.flush();
        await app.laps.importFile(good);
      }],
    ];
    for (const [stage, prepare] of stages) {
      await withApp(async (app, kv) => {
        await prepare(app);
        const before = await snapshot(kv);
        for (const [why, file] of rejectedFiles(good)) {
          await assert.rejects(app.laps.importFile(file), ImportRejected, `${stage}: ${why}`);
          assert.deepEqual(await snapshot(kv), before, `${stage}: ${why} wrote something`);
        }
        // The same store still takes a good file, so the rejections were not vacuous.
        const ok = await app.laps.importFile(good);
        assert.ok((await snapshot(kv)).length > before.length);
        assert.equal(ok.lap.imported, true);
      });
    }
  },
});

Deno.test("a lap file carries its circuit and car: a re-import names its new session", async () => {
  await withApp(async (app, kv) => {
    const base = minimalLapFile(200, { car_id: 999_999, time_ms: 3400 });
    // A car the catalogue does not know keeps the name the file carries.
    const first = await app.laps.importFile({
      ...base,
      lap: { ...base.lap, track_name: "Lago Maggiore", car_name: "Homebuilt Special" },
    });
    assert.equal(first.session.track_name, "Lago Maggiore");
    assert.equal(first.session.track_source, "user");
    assert.equal(first.session.car_name, "Homebuilt Special");
    const exported = JSON.parse(JSON.stringify(await app.laps.exportFile(first.lap.id)));
    assert.equal(exported.lap.track_name, "Lago Maggiore");
    assert.equal(exported.lap.car_name, "Homebuilt Special");
    const again = await app.laps.importFile(exported);
    const session = await getSession(kv, again.session.id);
    assert.equal(session?.track_name, "Lago Maggiore");
    assert.equal(session?.car_name, "Homebuilt Special");
    // A file without the names (older, or an unnamed session's) imports unnamed.
    const unnamed = await app.laps.importFile(base);
    assert.equal(unnamed.session.track_name, "");
    assert.equal(unnamed.session.track_source, "");
    assert.equal(unnamed.session.car_name, "Car 999999");
  });
});
