import { strict as assert } from "node:assert";
import { type App } from "../../src/app/create_app.ts";
import type { SurveyStatus } from "../../src/app/survey/survey_status.ts";
import { straight } from "../core/survey/_frames.ts";
import { withServer as serve } from "./_server.ts";

function withServer(fn: (url: string, app: App) => Promise<void>): Promise<void> {
  return serve(fn, { now: new Date("2026-11-21T12:00:00.000Z") });
}

async function call(url: string, method: string, path: string, body?: string) {
  const res = await fetch(`${url}/api${path}`, { method, body });
  const json = await res.json();
  return { status: res.status, type: res.headers.get("content-type"), json };
}

Deno.test("survey endpoints: 409 when the action makes no sense, 400 with a JSON path for bad bodies", async () => {
  await withServer(async (url, app) => {
    for (
      const [path, body] of [["/survey/stop", undefined], ["/survey/mark", '{"side":"L"}'], [
        "/survey/track",
        '{"track":"Ring"}',
      ]] as const
    ) {
      const r = await call(url, "POST", path, body);
      assert.equal(r.status, 409, path);
      assert.equal(r.type, "application/problem+json");
    }
    const bad = await call(url, "POST", "/survey/start", '{"track_width_m":"wide"}');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.errors[0].path, "$.track_width_m");
    assert.equal((await call(url, "POST", "/survey/start", "{nope")).status, 400);
    // A body that is not an object is refused, and no survey starts.
    for (const body of ["null", "[]", "7", '"Spa"']) {
      const r = await call(url, "POST", "/survey/start", body);
      assert.equal(r.status, 400, body);
      assert.equal(r.json.errors[0].path, "$", body);
      assert.equal(app.survey.status().running, false, body);
    }
    // An empty POST starts an unlabelled survey with the assumed 1.6 m.
    const started = await call(url, "POST", "/survey/start");
    assert.equal(started.status, 200);
    assert.deepEqual(
      [started.json.running, started.json.track, started.json.tw_m, started.json.source_id],
      [true, "", 1.6, app.sourceId],
    );
    assert.equal((await call(url, "POST", "/survey/start", "{}")).status, 409);
    const side = await call(url, "POST", "/survey/mark", '{"side":"X","kind":"wall"}');
    assert.equal(side.status, 400);
    assert.equal(side.json.errors[0].path, "$.side");
    const blank = await call(url, "POST", "/survey/track", '{"track":"  "}');
    assert.equal(blank.status, 400);
    assert.equal(blank.json.errors[0].path, "$.track");
    const named = await call(url, "POST", "/survey/track", '{"track":"Ring"}');
    assert.deepEqual([named.status, named.json.slug, named.json.run], [200, "ring", 1]);
    const mark = await call(url, "POST", "/survey/mark", '{"side":"L","kind":"runoff"}');
    assert.deepEqual(mark.json.mark, { side: "L", kind: "runoff" });
    for (const f of straight(60, 12, () => "TTTT")) app.live.ingest(f);
    const status = await call(url, "GET", "/survey");
    assert.equal((status.json as SurveyStatus).cells, 6);
    assert.equal((status.json as SurveyStatus).points.manual, 6);
    const stopped = await call(url, "POST", "/survey/stop");
    assert.deepEqual([stopped.status, stopped.json.running, stopped.json.last_save.cells], [
      200,
      false,
      6,
    ]);
    const doc = await call(url, "GET", "/track-bundles/ring");
    assert.equal(doc.json.edges.length, 6);
    assert.ok(doc.json.edges.every((e: { kind: string }) => e.kind === "runoff"));
    assert.equal((await call(url, "POST", "/survey/stop")).status, 409);
  });
});

Deno.test("survey over HTTP: a stop without a track keeps the run pending; label saves it, discard ends it", async () => {
  await withServer(async (url, app) => {
    assert.equal((await call(url, "POST", "/survey/discard")).status, 409);
    assert.equal((await call(url, "POST", "/survey/start")).status, 200);
    for (const f of straight(60, 12, () => "GTGT")) app.live.ingest(f);
    const stopped = await call(url, "POST", "/survey/stop");
    assert.deepEqual(
      [stopped.status, stopped.json.running, stopped.json.pending, stopped.json.cells],
      [200, false, true, 6],
    );
    assert.equal(stopped.json.last_save, null);
    assert.equal((await call(url, "GET", "/survey")).json.pending, true);
    // Waiting: a new run is refused, saying what to do.
    const busy = await call(url, "POST", "/survey/start");
    assert.equal(busy.status, 409);
    assert.match(busy.json.detail, /waits for its circuit name/);
    const named = await call(url, "POST", "/survey/track", '{"track":"Ring"}');
    assert.deepEqual(
      [named.status, named.json.pending, named.json.slug, named.json.last_save.cells],
      [200, false, "ring", 6],
    );
    assert.equal((await call(url, "GET", "/track-bundles/ring")).json.edges.length, 6);

    // A second unnamed run, discarded: nothing saved, nothing waits.
    assert.equal((await call(url, "POST", "/survey/start")).status, 200);
    for (const f of straight(60, 12, () => "GTGT", { z0: 5000, packet0: 1000 })) {
      app.live.ingest(f);
    }
    assert.equal((await call(url, "POST", "/survey/stop")).json.pending, true);
    const dropped = await call(url, "POST", "/survey/discard");
    assert.deepEqual([dropped.status, dropped.json.pending, dropped.json.cells], [200, false, 0]);
    assert.equal((await call(url, "POST", "/survey/discard")).status, 409);
    assert.equal((await call(url, "POST", "/survey/track", '{"track":"Ring"}')).status, 409);
    assert.equal((await call(url, "GET", "/track-bundles/ring")).json.edges.length, 6);
  });
});
