/**
 * End to end: a logger fed by the fake console over UDP names a new session
 * from the surveyed bundle of its circuit on the first completed lap, and a
 * real HTTP client on GET /api/events hears of it before the lap's own
 * event. How soon (the 200 ms target) is measured by bench/events_bench.ts.
 * On a fresh store, a real capture is named from its reference line while
 * its first lap is driven.
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import type { Session } from "../../src/core/laps/session.ts";
import { noFixtures, SHARED_FIXTURES } from "../_fixtures.ts";
import { SseReader } from "../server/_sse.ts";
import { getJson, replayInto } from "./harness.ts";
import { driveNamedOverSse } from "./_naming_over_sse.ts";

Deno.test("an SSE client hears the session named on the lap that named it, before that lap", async () => {
  const { logger, sse, named, delayMs, close } = await driveNamedOverSse();
  try {
    const event = JSON.parse(named.data) as { session: Session };
    assert.equal(event.session.track_name, "Demo Ring");
    assert.equal(event.session.track_source, "bundle");
    console.log(`session event ${delayMs.toFixed(1)} ms after the lap that named it`);
    assert.ok(delayMs >= 0, `heard ${delayMs.toFixed(1)} ms before the lap ended`);
    // The lap's own event follows, already carrying the name; so does the second lap's
    // (stored by now, but perhaps not yet read by the client).
    await sse.waitFor((m) => m.event === "lap" && JSON.parse(m.data).lap.number === 2);
    const laps = sse.messages.filter((m) => m.event === "lap").map((m) => JSON.parse(m.data));
    assert.deepEqual(laps.map((l) => [l.lap.number, l.session.track_name]), [
      [1, "Demo Ring"],
      [2, "Demo Ring"],
    ]);
    const firstLap = sse.messages.findIndex((m) => m.event === "lap");
    assert.ok(sse.messages.indexOf(named) < firstLap);
    const sessions = await getJson<Session[]>(logger, "/api/sessions");
    assert.deepEqual(sessions.map((s) => [s.track_name, s.lap_count]), [["Demo Ring", 2]]);
  } finally {
    await close();
  }
});

Deno.test({
  name: "a fresh logger names Suzuka live from its reference line, heard over SSE before lap 1",
  ignore: noFixtures,
  async fn() {
    let sse: SseReader | null = null;
    const { logger } = await replayInto(join(SHARED_FIXTURES, "gt7", "suzuka-full-lap.A.gt7.gz"), {
      before: async (logger) => {
        // Built before the drive (a logger builds it during its first frames otherwise).
        await logger.app.tracks.warmReferences();
        const res = await fetch(`${logger.http.url}/api/events`);
        assert.equal(res.status, 200);
        sse = new SseReader(res);
      },
    });
    const reader = sse! as SseReader;
    try {
      const named = await reader.waitFor((m) =>
        m.event === "session" && JSON.parse(m.data).reason === "identified"
      );
      const lap = await reader.waitFor((m) => m.event === "lap");
      const session = (JSON.parse(named.data) as { session: Session }).session;
      // Named during its first lap: no lap stored yet, no signature, no bundle.
      assert.deepEqual([session.track_name, session.track_source, session.lap_count], [
        "Suzuka Circuit",
        "reference",
        0,
      ]);
      assert.ok(reader.messages.indexOf(named) < reader.messages.indexOf(lap));
      assert.equal(JSON.parse(lap.data).session.track_name, "Suzuka Circuit");
      assert.deepEqual(await getJson<unknown[]>(logger, "/api/track-bundles"), []);
      const tracks = await getJson<{ source: string }[]>(logger, "/api/tracks");
      assert.equal(tracks.filter((t) => t.source === "user").length, 0);
      const sessions = await getJson<Session[]>(logger, "/api/sessions");
      assert.deepEqual(sessions.map((s) => [s.track_name, s.track_source, s.lap_count]), [
        ["Suzuka Circuit", "reference", 1],
      ]);
    } finally {
      await reader.cancel();
      await logger.close();
    }
  },
});
