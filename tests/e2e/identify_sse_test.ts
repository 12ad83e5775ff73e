/**
 * End to end: a logger fed by the fake console over UDP names a new session
 * from the surveyed bundle of its circuit on the first completed lap, and a
 * real HTTP client on GET /api/events hears of it before the lap's own
 * event. How soon (the 200 ms target) is measured by bench/events_bench.ts.
 */
import { strict as assert } from "node:assert";
import type { Session } from "../../src/core/laps/session.ts";
import { getJson } from "./harness.ts";
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
