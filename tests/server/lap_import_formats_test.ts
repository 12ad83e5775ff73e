/**
 * POST /api/laps/import over HTTP for every format: a real recorded lap
 * exported as CSV and .ld by the API posts back as it is (201, one row per
 * lap beside the single-lap fields), gt7dashboard's save gives one row per
 * lap, and a file the import cannot take is a 400 problem naming what was
 * recognised and what is wrong, with nothing stored.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { noFixtures, readFixture, readGzFixture } from "../_fixtures.ts";
import { parseCapture } from "../../src/core/gt7/capture.ts";
import { decodeFrame } from "../../src/core/gt7/decode.ts";
import { LapRecorder } from "../../src/core/laps/recorder.ts";
import { finishRecordedLap } from "../../src/core/laps/recorded_lap.ts";
import { createSession } from "../../src/storage/sessions.ts";
import { saveLap } from "../../src/storage/laps.ts";
import { withServer } from "./_server.ts";

async function storeSpa(kv: Deno.Kv): Promise<number> {
  const rec = new LapRecorder();
  const s = await createSession(kv, {
    kind: "live",
    started_at: "2026-11-21T10:00:00.000Z",
    car_id: 3582,
    car_name: "x",
    track_name: "Spa-Francorchamps",
  });
  for (const p of parseCapture(readGzFixture("gt7/spa-full-lap.C.gt7.gz")).packets) {
    for (const e of rec.push(decodeFrame(p))) {
      if (e.type !== "lap") continue;
      const lap = finishRecordedLap(e.lap, "2026-11-21T10:02:00.000Z");
      return (await saveLap(kv, s.id, lap)).lap.id;
    }
  }
  throw new Error("no lap in the Spa capture");
}

/** The fields of an import's answer (201) or problem (400) the tests read. */
interface Answer {
  format: string;
  imported: { id: number; session_id: number; number: number; time_ms: number }[];
  skipped: { lap: number; reason: string }[];
  created_session: boolean;
  lap: { id: number; total_ticks: number };
  session: { id: number; track_name: string };
  detail: string;
  errors: { path: string; message: string }[];
}

async function post(url: string, body: Uint8Array): Promise<{ status: number; json: Answer }> {
  const res = await fetch(`${url}/api/laps/import`, {
    method: "POST",
    body: body.slice() as Uint8Array<ArrayBuffer>,
  });
  return { status: res.status, json: await res.json() };
}

Deno.test({
  name:
    "POST /api/laps/import takes our CSV and .ld exports as they are: same lap time and samples",
  ignore: noFixtures,
  async fn() {
    await withServer(async (url, app) => {
      const id = await storeSpa(app.kv);
      const original = await (await fetch(`${url}/api/laps/${id}`)).json();
      for (const [ext, format] of [["csv", "motec-csv"], ["ld", "motec-ld"]]) {
        const bytes = await (await fetch(`${url}/api/laps/${id}/export.${ext}`)).bytes();
        const { status, json } = await post(url, bytes);
        assert.equal(status, 201, JSON.stringify(json));
        assert.equal(json.format, format);
        assert.deepEqual(json.imported, [{
          id: json.lap.id,
          session_id: json.session.id,
          number: original.number,
          time_ms: 115_244,
        }]);
        assert.deepEqual(json.skipped, []);
        assert.equal(json.created_session, true);
        assert.equal(json.lap.total_ticks, original.total_ticks);
        assert.equal(json.session.track_name, "Spa-Francorchamps");
        const back = await (await fetch(`${url}/api/laps/${json.lap.id}`)).json();
        // Ride height comes across to its stored step; steering is not in the CSV, so absent.
        assert.deepEqual(back.samples.body_height, original.samples.body_height);
        if (ext === "csv") assert.equal(back.samples.steer, undefined);
      }
    }, { now: new Date("2026-11-21T12:00:00Z") });
  },
});

Deno.test({
  name:
    "POST /api/laps/import: gt7dashboard's save gives a row per lap; a bad file is a 400, nothing stored",
  ignore: noFixtures,
  async fn() {
    await withServer(async (url) => {
      const save = readFixture("gt7/broad-bean-raceway-4-laps.json");
      const ok = await post(url, save);
      assert.equal(ok.status, 201);
      assert.deepEqual(ok.json.imported.map((l) => l.time_ms), [
        32_722,
        32_559,
        32_679,
        32_651,
      ]);
      const sessions = async () => (await (await fetch(`${url}/api/sessions`)).json()).length;
      const before = await sessions();
      const bad = await post(url, save.subarray(0, 2000));
      assert.equal(bad.status, 400);
      assert.match(bad.json.detail, /^body is not valid JSON: /);
      const broken = JSON.parse(new TextDecoder().decode(save));
      broken[2].data_position_x[5] = null;
      const rejected = await post(url, new TextEncoder().encode(JSON.stringify(broken)));
      assert.equal(rejected.status, 400);
      assert.deepEqual(rejected.json.errors, [
        { path: "$[2].data_position_x[5]", message: "must be a finite number" },
      ]);
      assert.equal(await sessions(), before);
    });
  },
});
