import { strict as assert } from "node:assert";
import { parse } from "csv-parse/sync";
import { noFixtures, readGzFixture } from "../_fixtures.ts";
import { readJsonBody } from "../../src/server/body.ts";
import { parseCapture } from "../../src/core/gt7/capture.ts";
import { decodeFrame } from "../../src/core/gt7/decode.ts";
import { LapRecorder, type RecordedLap } from "../../src/core/laps/recorder.ts";
import { finishRecordedLap } from "../../src/core/laps/recorded_lap.ts";
import { createSession } from "../../src/storage/sessions.ts";
import { saveLap } from "../../src/storage/laps.ts";
import type { Lap } from "../../src/core/laps/lap.ts";
import { TooLarge } from "../../src/core/errors.ts";
import { minimalLapFile } from "../_lap_files.ts";
import { withServer as serve } from "./_server.ts";
import { captureFrames, samplesOfFrames } from "../core/identify/_laps.ts";

function withServer(fn: (url: string, kv: Deno.Kv) => Promise<void>): Promise<void> {
  return serve((url, app) => fn(url, app.kv), { now: new Date("2026-11-21T12:00:00Z") });
}

function recordCapture(file: string): RecordedLap {
  const rec = new LapRecorder();
  for (const p of parseCapture(readGzFixture(file)).packets) {
    for (const e of rec.push(decodeFrame(p))) if (e.type === "lap") return e.lap;
  }
  throw new Error(`no lap in ${file}`);
}

async function storeCapture(kv: Deno.Kv, file: string): Promise<number> {
  const s = await createSession(kv, {
    kind: "live",
    started_at: "2026-11-21T10:00:00.000Z",
    car_id: 3582,
    car_name: "x",
    track_name: "Spa-Francorchamps",
  });
  const lap = finishRecordedLap(recordCapture(file), "2026-11-21T10:02:00.000Z");
  return (await saveLap(kv, s.id, lap)).lap.id;
}

async function sessionsCount(url: string): Promise<number> {
  return (await (await fetch(`${url}/api/sessions`)).json()).length;
}

for (const file of ["gt7/spa-full-lap.C.gt7.gz", "gt7/suzuka-full-lap.A.gt7.gz"]) {
  Deno.test({
    name: `a real lap (${file}) round-trips export -> import bit for bit`,
    ignore: noFixtures,
    async fn() {
      await withServer(async (url, kv) => {
        const id = await storeCapture(kv, file);
        const exported = await fetch(`${url}/api/laps/${id}/export.json`);
        assert.equal(exported.status, 200);
        // Named as a folder export names it: lap, circuit, session, the time it finished (UTC).
        assert.equal(
          exported.headers.get("content-disposition"),
          `attachment; filename="sim-datalogger-lap-${id}-spa-francorchamps-s1-20261121-100200.json"`,
        );
        const text = await exported.text();
        const doc = JSON.parse(text);
        assert.equal(doc.format, "sim-datalogger-lap");
        assert.equal(doc.version, 2);
        const res = await fetch(`${url}/api/laps/import`, { method: "POST", body: text });
        assert.equal(res.status, 201);
        const result = await res.json();
        assert.equal(result.created_session, true);
        assert.equal(result.session.kind, "imported");
        const original: Lap = await (await fetch(`${url}/api/laps/${id}`)).json();
        const copy: Lap = await (await fetch(`${url}/api/laps/${result.lap.id}`)).json();
        assert.deepEqual(copy.samples, original.samples);
        assert.deepEqual(copy.events, original.events);
        assert.equal(copy.time_ms, original.time_ms);
        assert.equal(copy.imported, true);
        assert.deepEqual(copy.gearing, original.gearing);
        assert.equal(copy.max_oil_temp, original.max_oil_temp);
      });
    },
  });
}

Deno.test({
  name: "the CSV export parses back with 27 channels and one row per sample",
  ignore: noFixtures,
  async fn() {
    await withServer(async (url, kv) => {
      const id = await storeCapture(kv, "gt7/spa-full-lap.C.gt7.gz");
      const lap: Lap = await (await fetch(`${url}/api/laps/${id}`)).json();
      const res = await fetch(`${url}/api/laps/${id}/export.csv`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "text/csv; charset=utf-8");
      assert.equal(
        res.headers.get("content-disposition"),
        `attachment; filename="sim-datalogger-lap-${id}-spa-francorchamps-s1-20261121-100200.csv"`,
      );
      const text = await res.text();
      const rows: string[][] = parse(text, { relax_column_count: true, skip_empty_lines: true });
      assert.deepEqual(rows[0], ["Format", "MoTeC CSV File"]);
      assert.equal(rows.find((r) => r[0] === "Venue")?.[1], "Spa-Francorchamps");
      assert.equal(rows.find((r) => r[0] === "Sample Rate")?.[1], "60.000");
      const nameRow = rows.findIndex((r) => r[0] === "Time");
      assert.equal(rows[nameRow].length, 27);
      assert.equal(rows[nameRow + 1].length, 27);
      const data = rows.slice(nameRow + 2);
      assert.equal(data.length, lap.samples.t.length);
      assert.ok(data.every((r) => r.length === 27));
      assert.equal(Number(data[100][2]), lap.samples.speed[100]);
      assert.ok(!/\d[eE][+-]?\d/.test(text), "no exponent notation");
    });
  },
});

Deno.test("every rejected lap import answers 400 and writes nothing", async () => {
  await withServer(async (url) => {
    const good = minimalLapFile(3);
    const cases: [string, unknown, string][] = [
      ["wrong format", { ...good, format: "other" }, "$.format"],
      ["newer version", { ...good, version: 3 }, "$.version"],
      ["missing dist", {
        ...good,
        lap: { ...good.lap, samples: { ...good.lap.samples, dist: undefined } },
      }, "$.lap.samples"],
      [
        "ragged",
        { ...good, lap: { ...good.lap, samples: { ...good.lap.samples, speed: [1, 2] } } },
        "$.lap.samples.speed",
      ],
      ["string sample", {
        ...good,
        lap: { ...good.lap, samples: { ...good.lap.samples, speed: [1, "2", 3] } },
      }, "$.lap.samples.speed[1]"],
      ["samples as a list", { ...good, lap: { ...good.lap, samples: [1, 2] } }, "$.lap.samples"],
      ["zero time", { ...good, lap: { ...good.lap, time_ms: 0 } }, "$.lap.time_ms"],
      ["blank name", { ...good, lap: { ...good.lap, track_name: "   " } }, "$.lap.track_name"],
      ["BEL in name", { ...good, lap: { ...good.lap, track_name: "a\u0007" } }, "$.lap.track_name"],
    ];
    for (const [what, body, path] of cases) {
      const res = await fetch(`${url}/api/laps/import`, {
        method: "POST",
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 400, what);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
      const problem = await res.json();
      assert.ok(
        problem.errors.some((e: { path: string }) => e.path === path),
        `${what}: ${JSON.stringify(problem.errors)}`,
      );
    }
    for (const raw of ["{not json", "", "[1,2"]) {
      const res = await fetch(`${url}/api/laps/import`, { method: "POST", body: raw });
      assert.equal(res.status, 400, raw);
      // An empty body is a file sent empty: said so, as the import command says it.
      if (raw === "") {
        assert.equal(
          (await res.json()).detail,
          "request body is empty: the file is empty, or was not sent; send a lap file, gt7dashboard save, MoTeC CSV or .ld",
        );
      } else await res.body?.cancel();
    }
    assert.equal(await sessionsCount(url), 0, "no session was created");
    const ok = await fetch(`${url}/api/laps/import`, {
      method: "POST",
      body: JSON.stringify(good),
    });
    assert.equal(ok.status, 201);
    assert.equal(await sessionsCount(url), 1);
  });
});

Deno.test("the body limit holds while streaming a chunked body", async () => {
  const chunks = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < 10; i++) c.enqueue(new Uint8Array(1024).fill(32));
      c.close();
    },
  });
  const req = new Request("http://x/", { method: "POST", body: chunks });
  await assert.rejects(readJsonBody(req, 4096), TooLarge);
  const declared = new Request("http://x/", {
    method: "POST",
    body: "{}",
    headers: { "content-length": "999999" },
  });
  await assert.rejects(readJsonBody(declared, 4096), TooLarge);
  assert.deepEqual(
    await readJsonBody(new Request("http://x/", { method: "POST", body: "{}" }), 4096),
    {},
  );
});

Deno.test({
  name: "POST /api/laps/import names an unnamed lap as live naming would: Brands Hatch Indy",
  ignore: noFixtures,
  async fn() {
    await withServer(async (url) => {
      const samples = samplesOfFrames(
        captureFrames("gt7/encrypted/brands-hatch--indy-circuit.A.gt7"),
      );
      const time_ms = Math.round(samples.t[samples.t.length - 1] * 1000);
      const res = await fetch(`${url}/api/laps/import`, {
        method: "POST",
        body: JSON.stringify(minimalLapFile(samples.t.length, { time_ms, samples })),
      });
      assert.equal(res.status, 201);
      const { session } = await res.json();
      assert.deepEqual([session.track_name, session.track_source], [
        "Brands Hatch Indy Circuit",
        "reference",
      ]);
    });
  },
});
