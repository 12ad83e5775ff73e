import { strict as assert } from "node:assert";
import { createSession } from "../../src/storage/sessions.ts";
import { withServer as serve } from "./_server.ts";

function withServer(fn: (url: string, kv: Deno.Kv) => Promise<void>): Promise<void> {
  return serve((url, app) => fn(url, app.kv));
}

Deno.test("health answers ok with the version", async () => {
  await withServer(async (url) => {
    const res = await fetch(`${url}/api/health`);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.status, "ok");
    assert.match(body.version, /^\d+\.\d+\.\d+$/);
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    assert.equal(res.headers.get("cache-control"), "no-store");
    assert.equal(res.headers.get("access-control-allow-origin"), null);
  });
});

Deno.test("status reports no telemetry and no live session on a fresh app", async () => {
  await withServer(async (url) => {
    const body = await (await fetch(`${url}/api/status`)).json();
    assert.equal(body.telemetry, null);
    assert.equal(body.live.session, null);
    assert.equal(body.live.laps_recorded, 0);
  });
});

Deno.test("sessions list and fetch; unknown ids are 404 problems", async () => {
  await withServer(async (url, kv) => {
    const s = await createSession(kv, {
      kind: "live",
      started_at: "t",
      car_id: 3315,
      car_name: "c",
    });
    const list = await (await fetch(`${url}/api/sessions`)).json();
    assert.deepEqual(list.map((x: { id: number }) => x.id), [s.id]);
    assert.equal((await (await fetch(`${url}/api/sessions/${s.id}`)).json()).car_id, 3315);
    assert.deepEqual(await (await fetch(`${url}/api/sessions/${s.id}/laps`)).json(), []);
    for (const path of [`/api/sessions/999`, `/api/sessions/999/laps`, `/api/laps/5`]) {
      const res = await fetch(`${url}${path}`);
      assert.equal(res.status, 404, path);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
      const problem = await res.json();
      assert.equal(problem.status, 404);
      assert.equal(problem.title, "Not found");
      assert.match(problem.detail, /not found/);
    }
  });
});

Deno.test("a malformed id is a 400 problem naming the parameter", async () => {
  await withServer(async (url) => {
    for (const bad of ["abc", "0", "-1", "1.5", "99999999999999999999"]) {
      const res = await fetch(`${url}/api/laps/${bad}`);
      assert.equal(res.status, 400, bad);
      const problem = await res.json();
      assert.deepEqual(problem.errors, [{
        path: "path.id",
        message: "must be a positive integer",
      }]);
    }
  });
});

Deno.test("an unknown route is a 404 problem", async () => {
  await withServer(async (url) => {
    const res = await fetch(`${url}/api/nope`);
    assert.equal(res.status, 404);
    assert.equal((await res.json()).detail, "no route for GET /api/nope");
  });
});

Deno.test("PATCH /api/sessions/{id} names the session's track, with precise refusals", async () => {
  await withServer(async (url, kv) => {
    const s = await createSession(kv, { kind: "live", started_at: "t", car_id: 1, car_name: "c" });
    const patch = (id: number | string, body: string) =>
      fetch(`${url}/api/sessions/${id}`, { method: "PATCH", body });
    const ok = await patch(s.id, JSON.stringify({ name: "  Suzuka Circuit " }));
    assert.equal(ok.status, 200);
    const renamed = await ok.json();
    assert.equal(renamed.track_name, "Suzuka Circuit");
    assert.equal(renamed.track_source, "user");
    const blank = await patch(s.id, JSON.stringify({ name: "   " }));
    assert.equal(blank.status, 400);
    assert.equal((await blank.json()).errors[0].path, "$.name");
    assert.equal((await patch(s.id, JSON.stringify({}))).status, 400);
    assert.equal((await patch(s.id, "[1]")).status, 400);
    assert.equal((await patch(999, JSON.stringify({ name: "x" }))).status, 404);
    assert.equal((await patch(s.id, JSON.stringify({ name: "x".repeat(81) }))).status, 400);
    const stored = await (await fetch(`${url}/api/sessions/${s.id}`)).json();
    assert.equal(stored.track_name, "Suzuka Circuit");
  });
});
