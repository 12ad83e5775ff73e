import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import type { AppEvent } from "../../src/app/events.ts";
import { planDrive, syntheticFrames } from "../../src/core/synthetic/drive.ts";
import { updateSession } from "../../src/storage/sessions.ts";

Deno.test("frame taps see every frame and lap hooks act before the lap is announced", async () => {
  const kv = await Deno.openKv(":memory:");
  const logged: string[] = [];
  const log = { warn: () => {}, error: (message: string) => logged.push(message) };
  const app = await createApp({ kv, now: () => new Date("2026-11-21T10:00:00Z"), log });
  const plan = planDrive({ seed: 3, laps: 2 });

  let tapped = 0;
  const untap = app.live.tap(() => tapped++);
  const hookCalls: string[] = [];
  app.live.onLap(async (lap, session) => {
    hookCalls.push(`first:${lap.number}:${session.track_name}`);
    if (session.track_name !== "") return;
    const named = await updateSession(kv, session.id, (s) => ({
      ...s,
      track_name: "Hooked",
      track_source: "user",
    }));
    return named ?? undefined;
  });
  app.live.onLap((lap, session) => {
    hookCalls.push(`second:${lap.number}:${session.track_name}`);
    throw new Error("a failing hook must not stop the lap");
  });
  const announced: string[] = [];
  app.bus.subscribe((e: AppEvent) => {
    if (e.type === "lap") announced.push(`${e.lap.number}:${e.session.track_name}`);
  });

  for (const frame of syntheticFrames({ seed: 3, laps: 2 })) app.live.ingest(frame);
  await app.live.flush();

  assert.equal(tapped, plan.totalFrames);
  untap();
  app.live.ingest(app.live.lastFrame!);
  assert.equal(tapped, plan.totalFrames);
  const laps = announced.length;
  assert.ok(laps >= 2, `laps announced: ${laps}`);
  // The first hook named the session on the first lap; every announcement carries the name.
  assert.deepEqual(announced, announced.map((a) => `${a.split(":")[0]}:Hooked`));
  assert.equal(hookCalls[0].replace(/:\d+:/, ":N:"), "first:N:");
  assert.equal(hookCalls[1].split(":")[2], "Hooked");
  assert.equal(hookCalls.length, 2 * laps);
  // Each failure of the second hook went to the app's log, not the console.
  assert.deepEqual(logged, Array(laps).fill("lap hook failed"));
  assert.equal(app.live.session?.track_name, "Hooked");
  kv.close();
});
