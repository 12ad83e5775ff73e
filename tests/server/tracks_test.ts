import { strict as assert } from "node:assert";
import { type App } from "../../src/app/create_app.ts";
import { finishRecordedLap } from "../../src/core/laps/recorded_lap.ts";
import { generateCircuit } from "../../src/core/synthetic/circuit.ts";
import { saveLap } from "../../src/storage/laps.ts";
import { createSession, getSession } from "../../src/storage/sessions.ts";
import { readBundle } from "../../src/storage/bundles.ts";
import { circuitBundle, syntheticLaps } from "../core/identify/_laps.ts";
import { withServer as serve } from "./_server.ts";

const NOW = new Date("2026-11-21T12:00:00.000Z");
const [LAP] = syntheticLaps(2);

function withServer(fn: (url: string, app: App) => Promise<void>): Promise<void> {
  return serve(fn, { now: NOW, afterClose: (app) => app.tracks.fingerprints.idle() });
}

async function storeLap(app: App, lap = LAP): Promise<{ session: number; lap: number }> {
  const s = await createSession(app.kv, {
    kind: "imported",
    started_at: NOW.toISOString(),
    car_id: lap.car_id,
    car_name: "Test car",
  });
  const saved = await saveLap(app.kv, s.id, finishRecordedLap(lap, NOW.toISOString()));
  return { session: s.id, lap: saved.lap.id };
}

function send(url: string, method: string, body?: unknown): Promise<Response> {
  return fetch(url, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

Deno.test("POST, GET and DELETE /api/tracks over HTTP", async () => {
  await withServer(async (url, app) => {
    const { session, lap } = await storeLap(app);
    const created = await send(`${url}/api/tracks`, "POST", { name: "Ring", lap_id: lap });
    assert.equal(created.status, 201);
    const body = await created.json();
    assert.equal(body.signature.id, 1);
    assert.equal(body.signature.name, "Ring");
    assert.deepEqual(body.named_sessions, [session]);
    assert.equal((await getSession(app.kv, session))?.track_name, "Ring");

    const list = await (await fetch(`${url}/api/tracks`)).json();
    assert.deepEqual(list.map((s: { id: number }) => s.id), [1]);
    assert.deepEqual(Object.keys(list[0]).sort(), [
      "created_at",
      "id",
      "lap_id",
      "length_m",
      "max_x",
      "max_z",
      "min_x",
      "min_z",
      "name",
      "provenance",
      "session_id",
    ]);

    const missing = await send(`${url}/api/tracks/7`, "DELETE");
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get("content-type"), "application/problem+json");
    assert.equal((await missing.json()).detail, "track signature 7 not found");
    const deleted = await send(`${url}/api/tracks/1`, "DELETE");
    assert.deepEqual(await deleted.json(), { id: 1, deleted: true });
    assert.deepEqual(await (await fetch(`${url}/api/tracks`)).json(), []);
    assert.equal((await getSession(app.kv, session))?.track_name, "Ring");
  });
});

Deno.test("POST /api/tracks answers problems: 400 with paths, 404 for an unknown lap", async () => {
  await withServer(async (url, app) => {
    const { lap } = await storeLap(app);
    const bad = await send(`${url}/api/tracks`, "POST", { name: "", lap_id: lap });
    assert.equal(bad.status, 400);
    assert.deepEqual((await bad.json()).errors, [
      {
        path: "$.name",
        message: "must be 1 to 80 characters, not blank, with no control characters",
      },
    ]);
    const badId = await send(`${url}/api/tracks`, "POST", { name: "Ring", lap_id: 0 });
    assert.equal(badId.status, 400);
    assert.equal((await badId.json()).errors[0].path, "$.lap_id");
    const unknown = await send(`${url}/api/tracks`, "POST", { name: "Ring", lap_id: 999 });
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
    const notJson = await fetch(`${url}/api/tracks`, { method: "POST", body: "{" });
    assert.equal(notJson.status, 400);
    await notJson.body?.cancel();
    assert.equal((await send(`${url}/api/tracks/abc`, "DELETE")).status, 400);
  });
});

Deno.test("POST /api/tracks refuses an incomplete lap with 409 naming the rule", async () => {
  await withServer(async (url, app) => {
    // Two seconds longer than its samples: 120 ticks the lap does not hold.
    const holed = { ...LAP, time_ms: LAP.time_ms + 2000 };
    const { session, lap } = await storeLap(app, holed);
    const res = await send(`${url}/api/tracks`, "POST", { name: "Ring", lap_id: lap });
    assert.equal(res.status, 409);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    const detail: string = (await res.json()).detail;
    assert.match(detail, /is incomplete \(120 of \d+ samples missing\)/);
    assert.match(detail, /a track signature is made from a complete lap only$/);
    assert.deepEqual(await (await fetch(`${url}/api/tracks`)).json(), []);
    assert.equal((await getSession(app.kv, session))?.track_name, "");
  });
});

Deno.test("POST /api/tracks/identify: 409 with nothing known, then names the session", async () => {
  await withServer(async (url, app) => {
    const { session } = await storeLap(app);
    const conflict = await send(`${url}/api/tracks/identify`, "POST");
    assert.equal(conflict.status, 409);
    assert.match((await conflict.json()).detail, /nothing to match against/);
    const imported = await send(
      `${url}/api/track-bundles/import`,
      "POST",
      circuitBundle(generateCircuit(2), "Ring"),
    );
    assert.equal(imported.status, 200);
    await imported.body?.cancel();
    const res = await send(`${url}/api/tracks/identify`, "POST");
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { checked: 1, identified: 1, tracks: { Ring: 1 } });
    assert.equal((await getSession(app.kv, session))?.track_source, "bundle");
  });
});

Deno.test("official suggestion and confirmation over HTTP", async () => {
  await withServer(async (url, app) => {
    await (await send(
      `${url}/api/track-bundles/import`,
      "POST",
      circuitBundle(generateCircuit(2), "Suzuka Circuit East Course"),
    )).body?.cancel();
    const slug = "suzuka-circuit-east-course";
    const got = await (await fetch(`${url}/api/track-bundles/${slug}/official-suggestion`)).json();
    assert.equal(got.suggestion.official_id, "4414cb");
    assert.equal(got.suggestion.confidence, 1);
    assert.equal(got.official, null);
    assert.equal((await readBundle(app.kv, slug))!.doc.meta.official, null);
    const missing = await fetch(`${url}/api/track-bundles/nowhere/official-suggestion`);
    assert.equal(missing.status, 404);
    await missing.body?.cancel();

    const official = {
      track: "Suzuka Circuit",
      layout: "East Course",
      official_id: "4414cb",
      official_name: "Suzuka Circuit East Course",
      turns: 9,
      length_m: 2243,
      reverse: false,
    };
    const bad = await send(`${url}/api/track-bundles/${slug}/official`, "PUT", {
      official: { ...official, length_m: "long" },
    });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).errors[0].path, "$.official.length_m");
    const put = await send(`${url}/api/track-bundles/${slug}/official`, "PUT", { official });
    assert.equal(put.status, 200);
    assert.deepEqual((await put.json()).official, official);
    assert.deepEqual((await readBundle(app.kv, slug))!.doc.meta.official, official);
  });
});
