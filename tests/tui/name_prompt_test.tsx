import { strict as assert } from "node:assert";
import { noFixtures } from "../_fixtures.ts";
import { AppView } from "../../src/tui/app_view.tsx";
import { promptFor } from "../../src/tui/name_prompt.tsx";
import { trackSuggestions } from "../../src/tui/track_suggestions.ts";
import type { AppEvent } from "../../src/app/events.ts";
import type { App } from "../../src/app/create_app.ts";
import { syntheticFrames } from "../../src/core/synthetic/drive.ts";
import type { Frame } from "../../src/core/gt7/frame.ts";
import { feed, frames, KEY, memoryApp, renderSized, sleep, SUZUKA, waitFor } from "./_harness.tsx";

/** Types `text` one key at a time, as a keyboard would. */
async function type(stdin: { write(s: string): void }, text: string): Promise<void> {
  for (const ch of text) {
    stdin.write(ch);
    await sleep(2);
  }
}

/** The synthetic race on circuit 3: the out-lap and two timed laps, as one car or another. */
function race3(carId?: number): Frame[] {
  return [...syntheticFrames({ seed: 3, laps: 2, carId })];
}

/** Records every event `app` announces. */
function record(app: App): AppEvent[] {
  const events: AppEvent[] = [];
  app.bus.subscribe((e) => events.push(e));
  return events;
}

Deno.test("suggestions: typed words start words of the name; the lap length orders them", () => {
  // Suzuka's full course is 5,807 m, its east course 2,243 m.
  assert.deepEqual(trackSuggestions("suz", 5800, 5).map((s) => s.name), [
    "Suzuka Circuit",
    "Suzuka Circuit East Course",
  ]);
  assert.deepEqual(trackSuggestions("suz", 2250, 5).map((s) => s.name), [
    "Suzuka Circuit East Course",
    "Suzuka Circuit",
  ]);
  assert.deepEqual(trackSuggestions("SUZUKA east", null, 5).map((s) => [s.name, s.off]), [
    ["Suzuka Circuit East Course", null],
  ]);
  assert.deepEqual(trackSuggestions("zzz", 5800, 5), []);
  // Nothing typed: only layouts within 15 % of the lap, closest first.
  const near = trackSuggestions("", 5807, 3);
  assert.equal(near[0].name, "Suzuka Circuit");
  assert.equal(near[0].off, 0);
  for (const s of trackSuggestions("", 5807, 200)) assert.ok(s.off! <= 0.15, s.name);
  assert.deepEqual(trackSuggestions("", null, 5), []);
});

Deno.test("promptFor asks on a full lap of an unnamed session not asked about before", () => {
  const lap = { id: 4, number: 1, time_ms: 99036, counts_for_best: true, complete: true };
  const session = { id: 2, track_name: "", car_name: "McLaren VGT" };
  const event = { type: "lap", lap, session } as unknown as AppEvent;
  assert.deepEqual(promptFor(event, new Set()), {
    sessionId: 2,
    lapId: 4,
    lapNumber: 1,
    timeMs: 99036,
    car: "McLaren VGT",
  });
  assert.equal(promptFor(event, new Set([2])), null);
  const named = { ...event, session: { ...session, track_name: "Suzuka" } } as AppEvent;
  assert.equal(promptFor(named, new Set()), null);
  const partial = { ...event, lap: { ...lap, counts_for_best: false } } as AppEvent;
  assert.equal(promptFor(partial, new Set()), null);
  // An incomplete lap makes no signature, so it never asks, whatever counts_for_best says.
  const incomplete = { ...event, lap: { ...lap, complete: false } } as AppEvent;
  assert.equal(promptFor(incomplete, new Set()), null);
});

Deno.test({
  name: "first lap of an unnamed session: the prompt offers Suzuka, Enter stores the signature",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    const r = renderSized(<AppView app={app} />, 80, 24);
    await waitFor(r.lastFrame, (t) => t.includes("No telemetry yet."));
    await feed(app, frames(SUZUKA));
    let text = await waitFor(r.lastFrame, (t) => t.includes(" km") && t.includes("Official"));
    await sleep(50);
    const lines = text.split("\n");
    assert.equal(lines[1], "Name this track: session 1, lap 1 1:39.036, 5.75 km");
    assert.equal(lines[2].trimEnd(), "Track name:");
    assert.equal(lines[3], "Official circuits:");
    // Nothing typed: the layouts nearest the lap's 5.75 km, as many as fit.
    assert.deepEqual(lines.slice(4, 12).map((l) => l.replace(/ {2,}/g, " | ")), [
      " | Autodromo Nazionale Monza No Chicane | 5.755 km | 0.1%",
      " | Daytona Road Course | 5.729 km | 0.4%",
      " | Autodromo Nazionale Monza | 5.793 km | 0.7%",
      " | Suzuka Circuit | 5.807 km | 1.0%",
      " | Autodrome Lago Maggiore - Full Course | 5.809 km | 1.0%",
      " | Autodrome Lago Maggiore - Full Course (Reverse) | 5.809 km | 1.0%",
      " | Trial Mountain Circuit | 5.434 km | 5.8%",
      " | Trial Mountain Circuit (Reverse) | 5.434 km | 5.8%",
    ]);
    assert.equal(lines.at(-1), "↑↓ pick a suggestion  Tab copy it  Enter save  Esc not now");
    for (const line of lines) assert.ok([...line].length <= 80, line);
    assert.ok(lines.length <= 23, String(lines.length));

    // While the prompt is up, the view keys and q are text.
    await type(r.stdin, "suzuka e");
    text = await waitFor(r.lastFrame, (t) => t.includes("Track name: suzuka e"));
    assert.ok(text.includes("  Suzuka Circuit East Course"), text);
    assert.ok(!text.includes("  Suzuka Circuit  "), text);
    await type(r.stdin, KEY.backspace.repeat(2));
    await waitFor(r.lastFrame, (t) => /Track name: suzuka\s/.test(t));
    r.stdin.write("\t");
    await waitFor(r.lastFrame, (t) => t.includes("Track name: Suzuka Circuit"));
    r.stdin.write(KEY.enter);
    text = await waitFor(r.lastFrame, (t) => t.includes('session 1 named "Suzuka Circuit"'));
    assert.match(text.split("\n")[0], /^\[1 Live\].* session 1 named "Suzuka Circuit"$/);
    await waitFor(r.lastFrame, (t) => t.includes("Session 1  Suzuka Circuit  McLaren VGT  1 lap"));

    // POST /api/tracks semantics: a user signature from lap 1, and the session named.
    const [signature] = await app.tracks.list();
    assert.equal(signature.name, "Suzuka Circuit");
    assert.equal(signature.lap_id, 1);
    assert.equal(signature.session_id, 1);
    assert.equal(signature.provenance, "user");
    assert.equal(Math.round(signature.length_m), 5752);
    const [stored] = await app.sessions.list();
    assert.deepEqual([stored.track_name, stored.track_source], ["Suzuka Circuit", "user"]);
    assert.equal(app.live.session?.track_name, "Suzuka Circuit");
    r.unmount();
    close();
  },
});

Deno.test({
  name: "↓ picks a suggestion and Enter saves it; a refused name keeps the prompt open",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    const r = renderSized(<AppView app={app} />, 100, 30);
    await feed(app, frames(SUZUKA));
    await waitFor(r.lastFrame, (t) => t.includes("Official circuits:") && t.includes(" km "));
    await sleep(50);
    r.stdin.write(KEY.enter);
    // Nothing typed and nothing picked: createTrack refuses the blank name.
    await waitFor(
      r.lastFrame,
      (t) => t.includes("name must be 1 to 80 characters, not blank, with no control characters"),
    );
    assert.deepEqual(await app.tracks.list(), []);
    await type(r.stdin, "suz");
    await waitFor(r.lastFrame, (t) => t.includes("Track name: suz"));
    r.stdin.write(KEY.down);
    const text = await waitFor(r.lastFrame, (t) => /^> Suzuka Circuit /m.test(t));
    assert.match(text, /^ {2}Suzuka Circuit East Course +2\.243 km +156\.4%$/m);
    r.stdin.write(KEY.enter);
    await waitFor(r.lastFrame, (t) => t.includes('session 1 named "Suzuka Circuit"'));
    assert.deepEqual((await app.tracks.list()).map((s) => [s.name, s.lap_id]), [[
      "Suzuka Circuit",
      1,
    ]]);
    r.unmount();
    close();
  },
});

Deno.test("Esc dismisses the prompt for that session: its second lap does not ask again", async () => {
  const { app, close } = await memoryApp();
  const events = record(app);
  const list = race3();
  const r = renderSized(<AppView app={app} />, 80, 24);
  // The out-lap and lap 1.
  const firstLapEnd = list.findIndex((f) => f.currentLap === 2);
  await feed(app, list.slice(0, firstLapEnd + 1));
  await waitFor(r.lastFrame, (t) => t.includes("Name this track: session 1, lap 1"));
  // The prompt's key handler attaches just after its first frame is drawn.
  await sleep(50);
  r.stdin.write(KEY.escape);
  let text = await waitFor(r.lastFrame, (t) => t.includes("session 1 left unnamed"));
  assert.ok(text.includes("No laps") || text.includes("Lap 2"), text);
  await feed(app, list.slice(firstLapEnd + 1));
  const laps = events.filter((e) => e.type === "lap");
  assert.deepEqual(laps.map((e) => e.type === "lap" && [e.lap.number, e.session.id]), [
    [1, 1],
    [2, 1],
  ]);
  await sleep(120);
  text = await waitFor(r.lastFrame, (t) => t.includes("Session 1  unnamed"));
  assert.ok(!text.includes("Name this track"), text);
  assert.deepEqual(await app.tracks.list(), []);
  assert.equal((await app.sessions.list())[0].track_name, "");
  r.unmount();
  close();
});

Deno.test("a session named by matching shows a badge, and no prompt appears", async () => {
  const { app, close } = await memoryApp();
  // The circuit is known: a first drive named through the prompt's service.
  await feed(app, race3());
  await app.tracks.create({ name: "Ring Three", lap_id: 1 });
  const events = record(app);
  const r = renderSized(<AppView app={app} />, 80, 24);
  await waitFor(r.lastFrame, (t) => t.includes("Session 1  Ring Three  "));
  // Another car on the same circuit: a new session, named from its first lap.
  await feed(app, race3(3315));
  const identified = events.find((e) => e.type === "session" && e.reason === "identified");
  assert.ok(identified && identified.type === "session");
  assert.equal(identified.session?.id, 2);
  assert.equal(identified.session?.track_source, "signature");
  await waitFor(
    r.lastFrame,
    (t) => t.includes("Session 2  Ring Three [matched by signature]  McLaren VGT  2 laps"),
  );
  await sleep(120);
  assert.ok(!r.lastFrame()!.includes("Name this track"), r.lastFrame());
  assert.equal((await app.tracks.list()).length, 1);
  r.unmount();
  close();
});
