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

    // The user's signatures first, then the 84 reference lines the project ships.
    const list = await (await fetch(`${url}/api/tracks`)).json();
    assert.equal(list.length, 85);
    assert.deepEqual(list.map((s: { source: string }) => s.source).slice(0, 2), [
      "user",
      "reference",
    ]);
    // Every field a signature had is still there, with its source and whether its direction is known.
    assert.deepEqual(Object.keys(list[0]).sort(), [
      "created_at",
      "direction",
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
      "source",
    ]);
    assert.deepEqual([list[0].id, list[0].provenance, list[0].direction], [1, "user", "recorded"]);
    const suzuka = list.find((t: { official_id?: string }) => t.official_id === "6e378b");
    assert.deepEqual(Object.keys(suzuka).sort(), [
      "closure",
      "credit",
      "inferred_m",
      "layout",
      "length_m",
      "name",
      "official_id",
      "recorded_m",
      "recording",
      "reverse_id",
      "reverse_name",
      "source",
      "source_file",
      "track",
      "twin_ids",
    ]);
    assert.deepEqual(
      [suzuka.source, suzuka.name, suzuka.reverse_id, suzuka.twin_ids, suzuka.closure],
      ["reference", "Suzuka Circuit", null, [], "closed"],
    );
    assert.match(suzuka.credit, /gt-telemetry/);
    assert.match(suzuka.credit, /MIT/);
    const spa = list.find((t: { official_id?: string }) => t.official_id === "3c4be1");
    assert.deepEqual(spa.twin_ids, ["d60ebc"]);
    const bb = list.find((t: { official_id?: string }) => t.official_id === "1fb373");
    assert.deepEqual([bb.reverse_id, bb.reverse_name], ["092b5e", "BB Raceway (Reverse)"]);
    const names = list.slice(1).map((t: { name: string }) => t.name);
    assert.deepEqual(names, [...names].sort());

    const missing = await send(`${url}/api/tracks/7`, "DELETE");
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get("content-type"), "application/problem+json");
    assert.equal((await missing.json()).detail, "track signature 7 not found");
    const deleted = await send(`${url}/api/tracks/1`, "DELETE");
    assert.deepEqual(await deleted.json(), { id: 1, deleted: true });
    const after = await (await fetch(`${url}/api/tracks`)).json();
    assert.deepEqual([after.length, after[0].source], [84, "reference"]);
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
        message: "is blank: give 1 to 80 characters that are not all spaces",
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
    assert.deepEqual(await app.tracks.list(), []);
    assert.equal((await getSession(app.kv, session))?.track_name, "");
  });
});

Deno.test("POST /api/tracks/identify: works on a fresh install, then names the session", async () => {
  await withServer(async (url, app) => {
    const { session } = await storeLap(app);
    // No signature and no bundle, but the reference lines: the lap is tried, and fits none.
    const fresh = await send(`${url}/api/tracks/identify`, "POST");
    assert.equal(fresh.status, 200);
    assert.deepEqual(await fresh.json(), { checked: 1, identified: 0, tracks: {} });
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

Deno.test("GET /api/laps/{id}/identify explains the verdict stage by stage; 404 unknown", async () => {
  await withServer(async (url, app) => {
    const { lap } = await storeLap(app);
    await (await send(`${url}/api/tracks`, "POST", { name: "Ring", lap_id: lap })).body?.cancel();
    const res = await fetch(`${url}/api/laps/${lap}/identify`);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual(Object.keys(body).sort(), [
      "bundles",
      "complete",
      "identification",
      "lap_id",
      "length_m",
      "reason",
      "reference",
      "session_id",
      "signatures",
      "suggestions",
    ]);
    assert.deepEqual(body.identification, { by: "signature", name: "Ring", signature_id: 1 });
    assert.deepEqual([body.lap_id, body.complete], [lap, true]);
    assert.match(
      body.reason,
      /^named by signature 1 "Ring": passes the four gates, driven the same/,
    );
    assert.deepEqual(Object.keys(body.signatures[0]).sort(), [
      "direction",
      "forward_share",
      "gate",
      "id",
      "kept",
      "name",
      "reason",
      "scores",
    ]);
    assert.deepEqual(body.signatures[0].scores, {
      length_share: 0,
      centre_dx_m: 0,
      centre_dz_m: 0,
      width_share: 0,
      depth_share: 0,
    });
    assert.deepEqual([body.signatures[0].kept, body.signatures[0].direction], [true, "forward"]);
    assert.deepEqual(body.bundles, {
      tested: 0,
      runner_up: 0,
      direction: null,
      forward_share: 0,
      reason: "no bundle is stored",
      candidates: [],
    });
    // The synthetic circuit lies near no reference line: every one is listed, none fits.
    assert.equal(body.reference.match, null);
    assert.equal(body.reference.candidates.length, 84);
    assert.ok("margin_m" in body.reference);
    assert.deepEqual(Object.keys(body.reference.candidates[0]).sort(), [
      "close",
      "covered_m",
      "covered_share",
      "direction",
      "fits",
      "forward_share",
      "misfit",
      "missed_m",
      "names",
      "near_m",
      "near_share",
      "off_m",
      "official_id",
      "official_name",
      "on_m",
      "reason",
    ]);
    assert.deepEqual(body.suggestions, []);
    const missing = await fetch(`${url}/api/laps/999/identify`);
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).detail, "lap 999 not found");
    const bad = await fetch(`${url}/api/laps/x/identify`);
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
  });
});
