import { strict as assert } from "node:assert";
import { noFixtures, readGzFixture } from "../_fixtures.ts";
import { type App, createApp } from "../../src/app/context.ts";
import { MAX_TRACK_NAME, renameSession, validTrackName } from "../../src/app/session_admin.ts";
import { session, sessions } from "../../src/app/sessions.ts";
import { BadRequest, NotFound } from "../../src/core/errors.ts";
import { parseCapture } from "../../src/core/gt7/capture.ts";
import { decodeFrame } from "../../src/core/gt7/decode.ts";
import { createSession } from "../../src/storage/sessions.ts";

async function withApp(fn: (app: App) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(await createApp({ kv, now: () => new Date("2026-11-21T12:00:00Z") }));
  } finally {
    kv.close();
  }
}

function stored(app: App) {
  return createSession(app.kv, {
    kind: "imported",
    started_at: "2026-11-21T10:00:00.000Z",
    car_id: 3315,
    car_name: "McLaren VGT",
  });
}

function rejects(fn: () => Promise<unknown>, message: RegExp): Promise<void> {
  return assert.rejects(fn, (err: unknown) => {
    assert.ok(err instanceof BadRequest);
    assert.equal(err.issues.length, 1);
    assert.equal(err.issues[0].path, "$.name");
    assert.match(err.issues[0].message, message);
    return true;
  });
}

Deno.test("renameSession stores the trimmed name with source user and returns the session", async () => {
  await withApp(async (app) => {
    const s = await stored(app);
    const updated = await renameSession(app, s.id, "  Suzuka Circuit \t");
    assert.deepEqual(updated, { ...s, track_name: "Suzuka Circuit", track_source: "user" });
    assert.deepEqual(await session(app, s.id), updated);
    assert.deepEqual((await sessions(app)).map((x) => x.track_name), ["Suzuka Circuit"]);
  });
});

Deno.test("renameSession takes exactly 80 characters, counted as code points", async () => {
  await withApp(async (app) => {
    const s = await stored(app);
    const name = "é".repeat(MAX_TRACK_NAME - 1) + "🏁";
    assert.equal((await renameSession(app, s.id, name)).track_name, name);
    await rejects(() => renameSession(app, s.id, name + "x"), /1 to 80 characters/);
    assert.equal((await session(app, s.id)).track_name, name);
  });
});

Deno.test("renameSession refuses a blank name and writes nothing", async () => {
  await withApp(async (app) => {
    const s = await stored(app);
    for (const name of ["", "   ", "\t\n"]) {
      await rejects(() => renameSession(app, s.id, name), /not blank/);
    }
    assert.deepEqual(await session(app, s.id), s);
  });
});

Deno.test("renameSession refuses control characters inside the name", async () => {
  await withApp(async (app) => {
    const s = await stored(app);
    await rejects(() => renameSession(app, s.id, "Spa\nFrancorchamps"), /control characters/);
    await rejects(() => renameSession(app, s.id, "Spa\u001b[2J"), /control characters/);
    assert.deepEqual(await session(app, s.id), s);
  });
});

Deno.test("renameSession refuses a name that is not a string", async () => {
  await withApp(async (app) => {
    const s = await stored(app);
    await rejects(() => renameSession(app, s.id, 42 as unknown as string), /must be a string/);
    assert.throws(() => validTrackName(null), BadRequest);
  });
});

Deno.test("renameSession of an unknown session is NotFound, and a bad name is checked first", async () => {
  await withApp(async (app) => {
    await assert.rejects(() => renameSession(app, 99, "Monza"), (err: unknown) => {
      assert.ok(err instanceof NotFound);
      assert.equal(err.message, "session 99 not found");
      return true;
    });
    await assert.rejects(() => renameSession(app, 99, " "), BadRequest);
    assert.deepEqual(await sessions(app), []);
  });
});

Deno.test({
  name: "renameSession of the live session updates the live copy too",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app) => {
      const packets = parseCapture(readGzFixture("gt7/suzuka-full-lap.A.gt7.gz")).packets;
      for (const p of packets) app.live.ingest(decodeFrame(p));
      await app.live.flush();
      const live = app.live.session!;
      assert.equal(live.track_name, "");
      assert.equal(live.lap_count, 1);
      const updated = await renameSession(app, live.id, "Suzuka");
      assert.equal(updated.lap_count, 1);
      assert.equal(updated.best_lap_time_ms, 99036);
      assert.deepEqual(app.live.session, updated);
      assert.equal(app.live.status().session?.track_name, "Suzuka");
    });
  },
});

Deno.test({
  name: "renaming another session leaves the live copy alone",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app) => {
      const other = await stored(app);
      const packets = parseCapture(readGzFixture("gt7/suzuka-full-lap.A.gt7.gz")).packets;
      for (const p of packets) app.live.ingest(decodeFrame(p));
      await app.live.flush();
      const before = app.live.session;
      await renameSession(app, other.id, "Tsukuba");
      assert.equal(app.live.session, before);
      assert.equal(app.live.session?.track_name, "");
    });
  },
});
