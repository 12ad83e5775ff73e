import { strict as assert } from "node:assert";
import type { App } from "../../src/app/create_app.ts";
import type { AppEvent } from "../../src/app/events.ts";
import type { CoachingNotes } from "../../src/core/analysis/coaching_notes.ts";
import type { CornerReport } from "../../src/core/analysis/types.ts";
import type { LapSamples } from "../../src/core/laps/columns.ts";
import { syntheticFrames } from "../../src/core/synthetic/drive.ts";
import { broadBeanLaps } from "../core/analysis/_laps.ts";
import { noFixtures } from "../_fixtures.ts";
import { withServer } from "./_server.ts";

const BROAD_BEAN = "Broad Bean Raceway";

async function get(url: string) {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

async function send(url: string, method: string, body: unknown) {
  const res = await fetch(url, { method, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** Imports `samples` as a lap of its own session, named `track` unless null; returns its id. */
async function importLap(
  url: string,
  number: number,
  timeMs: number,
  samples: LapSamples,
  track: string | null,
): Promise<number> {
  const res = await send(`${url}/api/laps/import`, "POST", {
    format: "sim-datalogger-lap",
    version: 2,
    lap: { number, time_ms: timeMs, car_id: 1549, samples },
  });
  assert.equal(res.status, 201);
  if (track !== null) {
    const named = await send(`${url}/api/sessions/${res.body.session.id}`, "PATCH", {
      name: track,
    });
    assert.equal(named.status, 200);
  }
  return res.body.lap.id;
}

Deno.test({
  name: "GET /api/laps/{id}/notes: against the circuit's best by default, the report's losses",
  ignore: noFixtures,
  async fn() {
    await withServer(async (url) => {
      const ids: number[] = [];
      for (const [k, l] of broadBeanLaps().entries()) {
        ids.push(await importLap(url, k + 1, l.time_ms, l.samples, BROAD_BEAN));
      }
      // Lap 2 is the fastest: the others are noted against it.
      const res = await get(`${url}/api/laps/${ids[0]}/notes`);
      assert.equal(res.status, 200);
      const notes = res.body as CoachingNotes;
      assert.equal(notes.ref_id, ids[1]);
      assert.ok(notes.notes.length > 0);
      const report = (await get(`${url}/api/analysis/corners?lap=${ids[0]}&ref=${ids[1]}`))
        .body as CornerReport;
      const byN = new Map(report.corners.map((r) => [r.n, r.delta_s]));
      for (const n of notes.notes) assert.equal(n.loss_s, byN.get(n.n));
      // The fastest lap is noted against the next fastest, never itself.
      const best = (await get(`${url}/api/laps/${ids[1]}/notes`)).body as CoachingNotes;
      assert.equal(best.ref_id, ids[3]);
      // An explicit reference; the lap against itself says nothing.
      const own = (await get(`${url}/api/laps/${ids[2]}/notes?ref=${ids[2]}`)).body;
      assert.deepEqual([own.ref_id, own.notes, own.lap_delta_s], [ids[2], [], 0]);
      const bad = await get(`${url}/api/laps/${ids[0]}/notes?ref=x`);
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body.errors.map((e: { path: string }) => e.path), ["ref"]);
      assert.equal((await get(`${url}/api/laps/999/notes`)).status, 404);
      assert.equal((await get(`${url}/api/laps/${ids[0]}/notes?ref=999`)).status, 404);
      // A lone unnamed lap has no reference.
      const lone = await importLap(url, 1, 32_000, broadBeanLaps()[0].samples, null);
      const none = await get(`${url}/api/laps/${lone}/notes`);
      assert.equal(none.status, 404);
      assert.match(none.body.detail, /has no reference/);
    });
  },
});

Deno.test("a stored live lap's notes are announced on the bus, against the session's best", async () => {
  await withServer(async (_url, app: App) => {
    const events: Extract<AppEvent, { type: "notes" }>[] = [];
    app.bus.subscribe((e) => {
      if (e.type === "notes") events.push(e);
    });
    const mistakes = [{ kind: "brake_early" as const, lap: 3, atM: 1103, metres: 25 }];
    for (const frame of syntheticFrames({ seed: 25, laps: 3, steady: true, mistakes })) {
      app.live.ingest(frame);
    }
    await app.live.flush();
    const laps = await app.sessions.laps(app.live.session!.id);
    // Lap 1 had no other lap to be noted against; laps 2 and 3 were, against lap 2's best so far.
    assert.deepEqual(events.map((e) => e.lap_number), [2, 3]);
    assert.deepEqual(events.map((e) => e.session_id), [laps[0].session_id, laps[0].session_id]);
    const [, third] = events;
    assert.equal(third.notes.lap_id, laps[2].id);
    assert.equal(third.notes.notes[0].n, 3);
    assert.equal(third.notes.notes[0].cue, "Turn 3: brake later");
    assert.deepEqual(
      third.notes,
      await app.analysis.notes(laps[2].id, { ref: third.notes.ref_id! }),
    );
  });
});
