/**
 * `demo --mistakes` (issue 36, item 7): the drive the demo replays, fed to
 * the application as its telemetry would be, gives coaching notes that say
 * real things: each lap after the first lost time at a named corner for a
 * named cause, and its cue says what to do. Without the flag the demo
 * drives as before.
 */
import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import type { AppEvent } from "../../src/app/events.ts";
import { demoSource } from "../../src/cli/demo.ts";
import { decodeFrame } from "../../src/core/gt7/decode.ts";

type NotesEvent = Extract<AppEvent, { type: "notes" }>;

/** The notes announced while the drive of `flags` is recorded by a fresh application. */
async function notesOfDrive(flags: { seed: number; laps: number; mistakes?: boolean }) {
  const source = await demoSource(flags);
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv, now: () => new Date("2026-11-28T12:00:00Z") });
  const notes: NotesEvent[] = [];
  app.bus.subscribe((e) => {
    if (e.type === "notes") notes.push(e);
  });
  try {
    for (const packet of source.packets()) app.live.ingest(decodeFrame(packet));
    await app.live.flush();
    return notes;
  } finally {
    kv.close();
  }
}

Deno.test("demo --mistakes: every lap after the first is noted with its corner and cause", async () => {
  const events = await notesOfDrive({ seed: 7, laps: 4, mistakes: true });
  // Lap 1 is clean and has no reference; laps 2-4 are noted against it, the fastest.
  assert.deepEqual(events.map((e) => [e.lap_number, e.notes.ref_id]), [[2, 1], [3, 1], [4, 1]]);
  const first = events.map((e) => e.notes.notes[0]);
  // One mistake a lap, the kinds in turn: braking early, slow at the apex, a lift on the exit.
  assert.deepEqual(first.map((n) => [n.corner, n.causes[0].kind, n.cue]), [
    ["Turn 3", "brake_earlier", "Turn 3: brake later"],
    ["Turn 8", "min_slower", "Turn 8: carry more speed"],
    ["Turn 3", "throttle_later", "Turn 3: throttle earlier"],
  ]);
  assert.deepEqual(first.map((n) => Math.round(n.causes[0].value!)), [25, 8, 29]);
  for (const note of first) assert.ok(note.loss_s >= 0.1, note.text);
});

Deno.test("demo without --mistakes: the drive is the varied one, as before", async () => {
  const plain = await demoSource({ seed: 7, laps: 2 });
  const mistaken = await demoSource({ seed: 7, laps: 2, mistakes: true });
  assert.equal(plain.description, "synthetic drive (seed 7, race, 2 laps)");
  const a = [...plain.packets()];
  const b = [...mistaken.packets()];
  // The same circuit and length of drive, but not the same laps.
  assert.equal(a.length > 0 && b.length > 0, true);
  assert.notDeepEqual(
    a.map((p) => decodeFrame(p).lastLapMs),
    b.map((p) => decodeFrame(p).lastLapMs),
  );
});
