import { strict as assert } from "node:assert";
import { type App, createApp } from "../../src/app/create_app.ts";
import type { AppEvent } from "../../src/app/events.ts";
import { AUTOSAVE_FRAMES } from "../../src/app/survey/survey.ts";
import { BadRequest, Conflict } from "../../src/core/errors.ts";
import { readBundle } from "../../src/storage/bundles.ts";
import { getCarWidth } from "../../src/storage/car_widths.ts";
import type { Frame } from "../../src/core/gt7/frame.ts";
import { straight } from "../core/survey/_frames.ts";
import { parseBody } from "../../src/app/request_body.ts";
import {
  bodyObject,
  markSchema,
  startSchema,
  trackSchema,
} from "../../src/app/survey/survey_body.ts";

// The use case takes parsed bodies; these parse them as the routes do.
const startBody = (raw: unknown) => parseBody(startSchema, raw, "survey start");
const trackBody = (raw: unknown) => parseBody(trackSchema, bodyObject(raw, "body"), "survey track");
const markBody = (raw: unknown) => parseBody(markSchema, bodyObject(raw, "body"), "survey mark");

async function withApp(fn: (app: App, events: AppEvent[], kv: Deno.Kv) => Promise<void>) {
  const kv = await Deno.openKv(":memory:");
  let tick = 0;
  const app = await createApp({ kv, now: () => new Date(Date.UTC(2026, 10, 21, 12, 0, tick++)) });
  const events: AppEvent[] = [];
  app.bus.subscribe((e) => events.push(e));
  try {
    await fn(app, events, kv);
  } finally {
    kv.close();
  }
}

/** Straddling the left border along +x at z0 for `n` frames (12 m/s, one cell per 2 m). */
function leftBorder(n: number, z0 = 0, packet0 = 1): Frame[] {
  return straight(n, 12, () => "GTGT", { z0, packet0 });
}

function feed(app: App, frames: Frame[]): void {
  for (const f of frames) app.live.ingest(f);
}

async function expectError(p: Promise<unknown> | (() => unknown), type: unknown, path?: string) {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (err) {
    assert.ok(err instanceof (type as typeof Error), `got ${err}`);
    if (path !== undefined) assert.equal((err as BadRequest).issues[0]?.path, path);
    return;
  }
  assert.fail("expected an error");
}

Deno.test("actions that make no sense are refused with Conflict; bad bodies with a JSON path", async () => {
  await withApp(async (app) => {
    await expectError(app.survey.stop(), Conflict);
    await expectError(() => app.survey.mark({ side: "L", kind: "wall" }), Conflict);
    await expectError(app.survey.setTrack({ track: "Ring" }), Conflict);
    await expectError(
      () => app.survey.start(startBody({ track_width_m: 3 })),
      BadRequest,
      "$.track_width_m",
    );
    await expectError(
      () => app.survey.start(startBody({ track_width_m: 0.5 })),
      BadRequest,
      "$.track_width_m",
    );
    await expectError(() => app.survey.start(startBody({ track: "   " })), BadRequest, "$.track");
    await expectError(
      () => app.survey.start(startBody({ track: "x".repeat(81) })),
      BadRequest,
      "$.track",
    );
    assert.equal(app.survey.running, false);
    const status = await app.survey.start(startBody({ track: " Ring ", track_width_m: 1.7 }));
    assert.deepEqual([status.running, status.track, status.slug, status.run], [
      true,
      "Ring",
      "ring",
      1,
    ]);
    assert.deepEqual([status.tw_m, status.tw_source], [1.7, "assumed"]);
    await expectError(app.survey.start({}), Conflict);
    await expectError(() => app.survey.mark(markBody({ side: "U" })), BadRequest, "$.side");
    await expectError(
      () => app.survey.mark(markBody({ side: "L", kind: "grass" })),
      BadRequest,
      "$.kind",
    );
    await expectError(() => app.survey.mark(markBody({})), BadRequest, "$.side");
    await expectError(() => app.survey.setTrack(trackBody({ track: "" })), BadRequest, "$.track");
    await expectError(() => app.survey.setTrack(trackBody([])), BadRequest, "$");
    assert.deepEqual(app.survey.mark(markBody({ side: "R" })).mark, { side: "R", kind: "edge" });
    assert.equal(app.survey.mark(markBody({ side: null })).mark, null);
    const stopped = await app.survey.stop();
    assert.equal(stopped.running, false);
    // Nothing was driven: nothing is saved.
    assert.equal(stopped.last_save, null);
    assert.equal(await readBundle(app.kv, "ring"), null);
  });
});

Deno.test("autosaves every 3,600 frames are idempotent; the stop counts the run; a second run counts once more", async () => {
  await withApp(async (app, events) => {
    await app.survey.start({ track: "Ring" });
    feed(app, leftBorder(AUTOSAVE_FRAMES));
    await app.survey.flush();
    const first = await readBundle(app.kv, "ring");
    assert.ok(first !== null);
    const cells = first.doc.edges.length;
    assert.equal(cells, 360); // 720 m at one point per 2 m
    assert.ok(
      first.doc.edges.every((e) =>
        JSON.stringify(e.votes) === `{"straddle":{"${app.sourceId}":[1,1]}}`
      ),
    );
    // The same ground again: the second autosave changes no vote and adds no cell.
    feed(app, leftBorder(AUTOSAVE_FRAMES, 0, 10_000));
    await app.survey.flush();
    const second = await readBundle(app.kv, "ring");
    assert.ok(second!.head.generation > first.head.generation);
    assert.deepEqual(second!.doc.edges, first.doc.edges);
    assert.equal(events.filter((e) => e.type === "bundle" && e.reason === "survey").length, 2);
    assert.ok(events.some((e) => e.type === "survey" && e.reason === "coverage"));
    const stopped = await app.survey.stop();
    assert.equal(stopped.last_save?.reason, "stop");
    assert.equal(stopped.last_save?.runs, 1);
    const after = await readBundle(app.kv, "ring");
    assert.deepEqual(after!.doc.meta.source_runs, { [app.sourceId]: 1 });

    const again = await app.survey.start({ track: "Ring" });
    assert.equal(again.run, 2);
    feed(app, leftBorder(600, 0, 20_000));
    await app.survey.stop();
    const doc = (await readBundle(app.kv, "ring"))!.doc;
    assert.equal(doc.edges.length, cells);
    assert.equal(doc.meta.runs, 2);
    const counts = doc.edges.map((e) => e.votes.straddle![app.sourceId][0]);
    // The second run drove 120 m: 60 cells count twice, the rest once.
    assert.equal(counts.filter((c) => c === 2).length, 60);
    assert.equal(counts.filter((c) => c === 1).length, cells - 60);
  });
});

Deno.test("a crash after an autosave still gives the next run a fresh ordinal", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const crashed = await createApp({ kv });
    await crashed.survey.start({ track: "Ring" });
    feed(crashed, leftBorder(AUTOSAVE_FRAMES));
    await crashed.survey.flush();
    // No stop: the process died here.
    const next = await createApp({ kv });
    assert.equal(next.sourceId, crashed.sourceId);
    const status = await next.survey.start({ track: "Ring" });
    assert.equal(status.run, 2);
    feed(next, leftBorder(60));
    await next.survey.stop();
    const doc = (await readBundle(kv, "ring"))!.doc;
    assert.deepEqual(doc.edges[0].votes.straddle, { [next.sourceId]: [2, 2] });
    assert.equal(doc.meta.runs, 2);
  } finally {
    kv.close();
  }
});

Deno.test("changing the circuit mid-run saves to the old one first; evidence never leaks between circuits", async () => {
  await withApp(async (app) => {
    await app.survey.start({ track: "Alpha" });
    feed(app, leftBorder(600)); // x 0..120 at z 0
    const moved = await app.survey.setTrack({ track: "Beta" });
    assert.deepEqual([moved.track, moved.slug, moved.run, moved.cells], ["Beta", "beta", 1, 0]);
    feed(app, leftBorder(300, 5000, 1000)); // x 0..60 at z 5000
    await app.survey.stop();
    const alpha = (await readBundle(app.kv, "alpha"))!.doc;
    const beta = (await readBundle(app.kv, "beta"))!.doc;
    assert.equal(alpha.edges.length, 60);
    assert.equal(beta.edges.length, 30);
    assert.ok(alpha.edges.every((e) => Math.abs(e.z) < 1));
    assert.ok(beta.edges.every((e) => Math.abs(e.z - 5000) < 1));
    // The circuit left behind was flushed uncounted; the one driven at the stop counts.
    assert.deepEqual(beta.meta.source_runs, { [app.sourceId]: 1 });
  });
});

Deno.test("evidence gathered before the circuit is named counts for it; unlabelled runs save nothing", async () => {
  await withApp(async (app) => {
    await app.survey.start();
    feed(app, leftBorder(AUTOSAVE_FRAMES));
    await app.survey.flush();
    assert.equal((await app.survey.start().catch((e) => e)) instanceof Conflict, true);
    assert.equal(app.survey.status().slug, null);
    const named = await app.survey.setTrack({ track: "Gamma" });
    assert.equal(named.cells, 360);
    assert.equal(named.run, 1);
    await app.survey.stop();
    assert.equal((await readBundle(app.kv, "gamma"))!.doc.edges.length, 360);
  });
});

Deno.test("shutdown saves a running survey and remembers the car's measured width", async () => {
  await withApp(async (app) => {
    await app.survey.start({ track: "Delta" });
    const turning: Frame[] = straight(80, 20, () => "GTGT").map((f) => ({
      ...f,
      angVelY: 0.5,
      // Outer (right) wheels 0.455 m/s faster: a 1.82 m track at 0.5 rad/s.
      wheelRps: [
        -(20 - 0.455) / 0.33,
        -(20 + 0.455) / 0.33,
        -(20 - 0.455) / 0.34,
        -(20 + 0.455) / 0.34,
      ],
    }));
    feed(app, turning);
    assert.equal(app.survey.status().tw_source, "cornering");
    await app.shutdown();
    assert.equal(app.survey.running, false);
    const doc = (await readBundle(app.kv, "delta"))!.doc;
    assert.equal(doc.meta.runs, 1);
    assert.ok(doc.edges.length > 0);
    const memory = await getCarWidth(app.kv, 1234);
    assert.equal(memory?.source, "cornering");
    assert.equal(memory?.samples, 80);
    assert.ok(Math.abs(memory!.tw_m - 1.82) < 0.005);
    // The next survey of that car starts from the remembered width.
    const next = await app.survey.start({ track: "Delta" });
    feed(app, leftBorder(1));
    await app.survey.flush();
    assert.equal(app.survey.status().tw_source, "memory");
    assert.equal(next.run, 2);
  });
});

Deno.test("after a stop the status keeps the ended run's figures until the next start", async () => {
  await withApp(async (app) => {
    assert.deepEqual([app.survey.status().running, app.survey.status().cells], [false, 0]);
    await app.survey.start({ track: "Epsilon" });
    feed(app, leftBorder(600));
    app.survey.mark({ side: "R", kind: "wall" });
    await app.survey.flush();
    const ended = await app.survey.stop();
    assert.deepEqual(
      [ended.running, ended.track, ended.slug, ended.run, ended.mark, ended.last_save?.reason],
      [false, "Epsilon", "epsilon", 1, null, "stop"],
    );
    // 600 frames at 12 m/s is 120 m: one cell per 2 m.
    assert.equal(ended.cells, 60);
    assert.deepEqual(app.survey.status(), ended);
    const next = await app.survey.start({});
    assert.deepEqual([next.running, next.track, next.cells, next.last_save], [true, "", 0, null]);
  });
});

Deno.test("a run stopped without a name keeps its cells until it is named: then it saves and counts", async () => {
  await withApp(async (app, events) => {
    await app.survey.start();
    feed(app, leftBorder(600));
    const stopped = await app.survey.stop();
    assert.deepEqual(
      [stopped.running, stopped.pending, stopped.track, stopped.cells, stopped.last_save],
      [false, true, "", 60, null],
    );
    assert.equal(app.survey.pending, true);
    assert.deepEqual(app.survey.status(), stopped);
    const stopEvent = events.findLast((e) => e.type === "survey");
    assert.ok(stopEvent?.type === "survey" && stopEvent.reason === "stop");
    assert.equal(stopEvent.status.pending, true);
    // Frames after the stop are not taken; nothing is written yet.
    feed(app, leftBorder(300, 5000, 1000));
    assert.equal(app.survey.status().cells, 60);
    assert.equal(await readBundle(app.kv, "zeta"), null);
    // A new run and marks wait for the name or the discard.
    const refused = await app.survey.start().catch((e) => e);
    assert.ok(refused instanceof Conflict);
    assert.match(refused.message, /stopped survey of 60 cells waits for its circuit name/);
    await expectError(() => app.survey.mark({ side: "L", kind: "edge" }), Conflict);

    const named = await app.survey.setTrack({ track: "Zeta" });
    assert.deepEqual(
      [named.running, named.pending, named.track, named.slug, named.run, named.cells],
      [false, false, "Zeta", "zeta", 1, 60],
    );
    assert.deepEqual(
      [named.last_save?.reason, named.last_save?.cells, named.last_save?.runs],
      ["stop", 60, 1],
    );
    assert.equal(app.survey.pending, false);
    const doc = (await readBundle(app.kv, "zeta"))!.doc;
    assert.equal(doc.edges.length, 60);
    assert.ok(doc.edges.every((e) => Math.abs(e.z) < 1));
    assert.deepEqual(doc.meta.source_runs, { [app.sourceId]: 1 });
    // Ended: naming again is refused, and a new run may start.
    await expectError(app.survey.setTrack({ track: "Zeta" }), Conflict);
    assert.equal((await app.survey.start()).running, true);
  });
});

Deno.test("a stopped unnamed run is dropped only by an explicit discard (or the process ending)", async () => {
  await withApp(async (app) => {
    assert.throws(() => app.survey.discard(), Conflict);
    await app.survey.start();
    feed(app, leftBorder(600));
    // Running is not pending: discard refuses, the run goes on.
    assert.throws(() => app.survey.discard(), Conflict);
    assert.equal((await app.survey.stop()).pending, true);
    const after = app.survey.discard();
    assert.deepEqual([after.running, after.pending, after.cells, after.last_save], [
      false,
      false,
      0,
      null,
    ]);
    assert.equal(app.survey.pending, false);
    assert.throws(() => app.survey.discard(), Conflict);
    await expectError(app.survey.setTrack({ track: "Eta" }), Conflict);
    assert.equal(await readBundle(app.kv, "eta"), null);
    // An unlabelled run with nothing gathered just stops: nothing waits.
    await app.survey.start();
    assert.equal((await app.survey.stop()).pending, false);
  });
  // The process ending loses a waiting run, and says so.
  const kv = await Deno.openKv(":memory:");
  const warnings: string[] = [];
  try {
    const app = await createApp({
      kv,
      log: { warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
    });
    await app.survey.start();
    feed(app, leftBorder(600));
    await app.shutdown();
    assert.equal(app.survey.pending, false);
    assert.deepEqual(warnings, [
      "survey: a stopped run of 60 cells was never named; it is lost with the process",
    ]);
  } finally {
    kv.close();
  }
});
