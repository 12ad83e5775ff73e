import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { touchSession } from "../../src/core/laps/session.ts";
import { minimalLapFile } from "../_lap_files.ts";

/** An app on an in-memory store whose clock reads `clock.now`. */
async function appWithClock(clock: { now: Date }) {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv, now: () => clock.now });
  return { app, close: () => kv.close() };
}

Deno.test("an imported lap finished long ago leaves updated_at at the import, not before started_at", async () => {
  const clock = { now: new Date("2026-11-24T12:00:00.000Z") };
  const { app, close } = await appWithClock(clock);
  try {
    const file = minimalLapFile(60, { finished_at: "2025-03-01T08:00:00Z" });
    const { session, lap } = await app.laps.importFile(file);
    assert.equal(session.started_at, "2026-11-24T12:00:00.000Z");
    assert.equal(session.updated_at, "2026-11-24T12:00:00.000Z");
    const stored = await app.sessions.get(session.id);
    assert.equal(stored.updated_at, "2026-11-24T12:00:00.000Z");
    // The lap keeps the time its file gives.
    assert.equal((await app.sessions.lap(lap.id)).finished_at, "2025-03-01T08:00:00Z");
  } finally {
    close();
  }
});

Deno.test("renaming or editing a session moves updated_at to the time of the change", async () => {
  const clock = { now: new Date("2026-11-24T12:00:00.000Z") };
  const { app, close } = await appWithClock(clock);
  try {
    const { session } = await app.laps.importFile(minimalLapFile(60));
    clock.now = new Date("2026-11-24T12:05:00.000Z");
    const renamed = await app.sessions.update(session.id, { name: "Broad Bean Raceway" });
    assert.equal(renamed.updated_at, "2026-11-24T12:05:00.000Z");
    assert.equal(renamed.started_at, session.started_at);
    assert.equal((await app.sessions.get(session.id)).updated_at, "2026-11-24T12:05:00.000Z");
    clock.now = new Date("2026-11-24T12:06:00.000Z");
    const noted = await app.sessions.update(session.id, { notes: "wet" });
    assert.equal(noted.updated_at, "2026-11-24T12:06:00.000Z");
    clock.now = new Date("2026-11-24T12:07:00.000Z");
    assert.equal(
      (await app.sessions.rename(session.id, "Suzuka Circuit")).updated_at,
      "2026-11-24T12:07:00.000Z",
    );
    // A clock set back never moves it back.
    clock.now = new Date("2026-11-24T11:00:00.000Z");
    const back = await app.sessions.update(session.id, { bests_excluded: true });
    assert.equal(back.updated_at, "2026-11-24T12:07:00.000Z");
  } finally {
    close();
  }
});

Deno.test("touchSession takes the latest of start, last change and now, by time, not by text", () => {
  const s = { started_at: "2026-11-24T12:00:00.000Z", updated_at: "2026-11-24T12:00:00.000Z" };
  assert.equal(touchSession(s, "2025-01-01T00:00:00Z").updated_at, s.started_at);
  assert.equal(touchSession(s, "2026-11-24T12:00:01Z").updated_at, "2026-11-24T12:00:01Z");
  // "…00Z" sorts after "…00.500Z" as text, but is earlier.
  const half = { ...s, updated_at: "2026-11-24T12:00:00.500Z" };
  assert.equal(touchSession(half, "2026-11-24T12:00:00Z").updated_at, "2026-11-24T12:00:00.500Z");
  assert.equal(touchSession(s, "").updated_at, s.started_at);
  assert.equal(touchSession(s, "not a time").updated_at, s.started_at);
});
