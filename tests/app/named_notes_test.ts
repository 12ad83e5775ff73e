/**
 * Naming a session must not change what its laps' notes say (QA on the
 * demo: `demo --mistakes`, notes read, the session named "Demo Ring", the
 * notes read again). Named, a lap is analysed by its circuit's corner map
 * (made from the best lap) instead of its own corners; each corner's time
 * is taken over the same stretch either way (braking zone to run out,
 * corner_stretches.ts), so the corner, the cause and the loss stay.
 */
import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import type { CoachingNotes } from "../../src/core/analysis/coaching_notes.ts";
import { demoSource } from "../../src/cli/demo.ts";
import { decodeFrame } from "../../src/core/gt7/decode.ts";

Deno.test("the demo's notes, read before and after the session is named: the same corners, causes and losses", async () => {
  const source = await demoSource({ seed: 7, laps: 7, mistakes: true });
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv, now: () => new Date("2026-11-28T12:00:00Z") });
  try {
    for (const packet of source.packets()) app.live.ingest(decodeFrame(packet));
    await app.live.flush();
    const [session] = await app.sessions.list();
    const laps = (await app.sessions.laps(session.id)).filter((l) => l.number >= 1);
    const first = laps.find((l) => l.number === 1)!;
    const read = () =>
      Promise.all(
        laps.filter((l) => l.number >= 2).map((l) => app.analysis.notes(l.id, { ref: first.id })),
      );
    const brief = (n: CoachingNotes) => n.notes.map((x) => `${x.corner} ${x.causes[0]?.kind}`);
    const unnamed = await read();
    await app.sessions.rename(session.id, "Demo Ring");
    const named = await read();
    assert.deepEqual(unnamed.map((n) => n.source), unnamed.map(() => "lap"));
    assert.deepEqual(named.map((n) => n.source), named.map(() => "circuit"));
    // Laps 2 to 7: braked early, slow at the apex, lifted, at Turns 3 and 8 in turn.
    assert.deepEqual(unnamed.map(brief), [
      ["Turn 3 brake_earlier"],
      ["Turn 8 min_slower"],
      ["Turn 3 throttle_later"],
      ["Turn 8 brake_earlier"],
      ["Turn 3 min_slower"],
      ["Turn 8 throttle_later"],
    ]);
    assert.deepEqual(named.map(brief), unnamed.map(brief));
    for (const [k, n] of named.entries()) {
      const before = unnamed[k];
      assert(Math.abs(n.notes[0].loss_s - before.notes[0].loss_s) <= 0.05, n.summary);
      // Each lap lost its time at its one mistake, and the note holds all of it, named or not.
      for (const notes of [before, n]) {
        assert(Math.abs(notes.notes[0].loss_s - notes.lap_delta_s) <= 0.03, notes.summary);
      }
    }
  } finally {
    await app.shutdown();
    kv.close();
  }
});
