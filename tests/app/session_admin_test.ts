import { strict as assert } from "node:assert";
import { noFixtures, readGzFixture } from "../_fixtures.ts";
import { type App, createApp } from "../../src/app/create_app.ts";
import { validTrackName } from "../../src/app/request_body.ts";
import { MAX_TRACK_CHARS } from "../../src/core/track_name.ts";
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
    const updated = await app.sessions.rename(s.id, "  Suzuka Circuit \t");
    assert.deepEqual(updated, {
      ...s,
      track_name: "Suzuka Circuit",
      track_source: "user",
      updated_at: "2026-11-21T12:00:00.000Z",
    });
    assert.deepEqual(await app.sessions.get(s.id), updated);
    assert.deepEqual((await app.sessions.list()).map((x) => x.track_name), ["Suzuka Circuit"]);
  });
});

Deno.test("renameSession takes exactly 80 characters, counted as code points", async () => {
  await withApp(async (app) => {
    const s = await stored(app);
    const name = "é".repeat(MAX_TRACK_CHARS - 1) + "🏁";
    assert.equal((await app.sessions.rename(s.id, name)).track_name, name);
    await rejects(
      () => app.sessions.rename(s.id, name + "x"),
      /^is too long: 81 characters, at most 80$/,
    );
    assert.equal((await app.sessions.get(s.id)).track_name, name);
  });
});

const BLANK = "is blank: give 1 to 80 characters that are not all spaces";

Deno.test("renameSession refuses a blank name and writes nothing", async () => {
  await withApp(async (app) => {
    const s = await stored(app);
    for (const name of ["", "   ", "\t\n"]) {
      await rejects(() => app.sessions.rename(s.id, name), new RegExp(`^${BLANK}$`));
    }
    assert.deepEqual(await app.sessions.get(s.id), s);
  });
});

Deno.test("renameSession refuses control characters inside the name", async () => {
  await withApp(async (app) => {
    const s = await stored(app);
    await rejects(
      () => app.sessions.rename(s.id, "Spa\nFrancorchamps"),
      /^holds a control character, U\+000A, at character 4: none is allowed$/,
    );
    await rejects(
      () => app.sessions.rename(s.id, "Spa\u001b[2J"),
      /^holds a control character, U\+001B, at character 4: none is allowed$/,
    );
    assert.deepEqual(await app.sessions.get(s.id), s);
  });
});

Deno.test("renameSession refuses a name that is not a string", async () => {
  await withApp(async (app) => {
    const s = await stored(app);
    await rejects(() => app.sessions.rename(s.id, 42 as unknown as string), /must be a string/);
    assert.throws(() => validTrackName(null), BadRequest);
  });
});

Deno.test("renameSession of an unknown session is NotFound, and a bad name is checked first", async () => {
  await withApp(async (app) => {
    await assert.rejects(() => app.sessions.rename(99, "Monza"), (err: unknown) => {
      assert.ok(err instanceof NotFound);
      assert.equal(err.message, "session 99 not found");
      return true;
    });
    await assert.rejects(() => app.sessions.rename(99, " "), BadRequest);
    assert.deepEqual(await app.sessions.list(), []);
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
      // Named from its reference line while the lap was driven; the driver's name replaces it.
      assert.equal(live.track_name, "Suzuka Circuit");
      assert.equal(live.lap_count, 1);
      const updated = await app.sessions.rename(live.id, "Suzuka");
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
      await app.sessions.rename(other.id, "Tsukuba");
      assert.equal(app.live.session, before);
      assert.equal(app.live.session?.track_name, "Suzuka Circuit");
    });
  },
});
