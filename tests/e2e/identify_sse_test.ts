/**
 * End to end: a logger fed by the fake console over UDP names a new session
 * from the surveyed bundle of its circuit on the first completed lap, and a
 * real HTTP client on GET /api/events hears of it within 200 ms of that lap.
 */
import { strict as assert } from "node:assert";
import type { Session } from "../../src/core/laps/session.ts";
import { generateCircuit } from "../../src/core/synthetic/circuit.ts";
import { fingerprintsOf } from "../../src/app/fingerprints.ts";
import { circuitBundle } from "../core/identify/_laps.ts";
import { SseReader } from "../server/_sse.ts";
import { getJson, replayInto } from "./harness.ts";

const SEED = 7;

Deno.test("an SSE client hears the session named within 200 ms of the lap that named it", async () => {
  let lapEndedAt = 0;
  let reader: SseReader | null = null;
  const { logger } = await replayInto(`synthetic:${SEED}`, {
    laps: 2,
    during: async (logger) => {
      let lap: number | null = null;
      logger.app.live.tap((frame) => {
        if (lap === 1 && frame.currentLap === 2 && lapEndedAt === 0) lapEndedAt = performance.now();
        lap = frame.currentLap;
      });
      const res = await fetch(`${logger.http.url}/api/events`);
      assert.equal(res.status, 200);
      reader = new SseReader(res);
      const imported = await fetch(`${logger.http.url}/api/track-bundles/import`, {
        method: "POST",
        body: JSON.stringify(circuitBundle(generateCircuit(SEED), "Demo Ring")),
      });
      assert.equal(imported.status, 200);
      await imported.body?.cancel();
      // The import happened during the out-lap, before any lap was stored.
      assert.equal(lapEndedAt, 0);
    },
  });
  try {
    const sse = reader!;
    const named = await sse.waitFor((m) =>
      m.event === "session" && JSON.parse(m.data).reason === "identified"
    );
    const event = JSON.parse(named.data) as { session: Session };
    assert.equal(event.session.track_name, "Demo Ring");
    assert.equal(event.session.track_source, "bundle");
    assert.ok(lapEndedAt > 0);
    const delay = named.at - lapEndedAt;
    console.log(`session event ${delay.toFixed(1)} ms after the lap that named it`);
    assert.ok(delay >= 0 && delay < 200, `delay ${delay.toFixed(1)} ms`);
    // The lap's own event follows, already carrying the name; so does the second lap's.
    const laps = sse.messages.filter((m) => m.event === "lap").map((m) => JSON.parse(m.data));
    assert.deepEqual(laps.map((l) => [l.lap.number, l.session.track_name]), [
      [1, "Demo Ring"],
      [2, "Demo Ring"],
    ]);
    const firstLap = sse.messages.findIndex((m) => m.event === "lap");
    assert.ok(sse.messages.indexOf(named) < firstLap);
    const sessions = await getJson<Session[]>(logger, "/api/sessions");
    assert.deepEqual(sessions.map((s) => [s.track_name, s.lap_count]), [["Demo Ring", 2]]);
    await sse.cancel();
  } finally {
    await fingerprintsOf(logger.app).idle();
    await logger.close();
  }
});
