import { strict as assert } from "node:assert";
import type { App } from "../../src/app/create_app.ts";
import { carName } from "../../src/core/catalog/cars.ts";
import { formatLapTime } from "../../src/core/laps/lap_time.ts";
import { AppView } from "../../src/tui/app_view.tsx";
import { BestsView } from "../../src/tui/bests_view.tsx";
import type { ViewParam } from "../../src/tui/view_types.ts";
import { KEY, memoryApp, renderSized, waitFor } from "./_harness.tsx";
import { driveSession } from "./_synthetic_sessions.ts";

const NSX = 3235;
const OTHER_CAR = 1234;

/**
 * Test Ring in the NSX over two sessions (laps 1..6), Test Ring in another
 * car (laps 7, 8), Other Park in the NSX (laps 9, 10). Returns each lap's id
 * and time by circuit and car, as planned.
 */
async function seed(app: App) {
  const a = await driveSession(app, { seed: 7, laps: 3, track: "Test Ring" });
  const b = await driveSession(app, { seed: 7, laps: 3, track: "Test Ring", startPacketId: 5000 });
  const c = await driveSession(app, { seed: 7, laps: 2, track: "Test Ring", carId: OTHER_CAR });
  const d = await driveSession(app, { seed: 11, laps: 2, track: "Other Park" });
  const ids = async (s: { session: { id: number } }) =>
    (await app.sessions.laps(s.session.id)).map((l) => l.id);
  const laps = (ss: typeof a[], car: number) =>
    Promise.all(ss.map(async (s) => (await ids(s)).map((id, k) => ({ id, time: s.times[k], car }))))
      .then((x) => x.flat());
  return {
    ring: await laps([a, b], NSX),
    ringOther: await laps([c], OTHER_CAR),
    park: await laps([d], NSX),
  };
}

type Lap = { id: number; time: number; car: number };

function fastest(laps: readonly Lap[]): Lap {
  return [...laps].sort((x, y) => x.time - y.time || x.id - y.id)[0];
}

function signed(ms: number): string {
  return `${ms >= 0 ? "+" : ""}${(ms / 1000).toFixed(3)}`;
}

/** The row the view must print (after its 2-cell selection mark) at 80 columns. */
function row(track: string, car: string, time: number, gap: string, behind: number): string {
  const free = 78 - 28;
  const tw = Math.floor(free / 2);
  const fit = (s: string, w: number) => s.length <= w ? s.padEnd(w) : s.slice(0, w - 1) + "…";
  return `${fit(track, tw)} ${fit(car, free - tw)} ${formatLapTime(time).padStart(9)} ${
    gap.padStart(8)
  } ${String(behind).padStart(6)}`;
}

Deno.test("bests list the fastest lap of each circuit and car, its gap to the outright best and the laps behind it", async () => {
  const { app, close } = await memoryApp();
  const s = await seed(app);
  const ring = fastest(s.ring);
  const other = fastest(s.ringOther);
  const park = fastest(s.park);
  assert.equal(ring.time, 93383);
  assert.ok(other.time > ring.time, `${other.time}`);
  let opened: { id: string; param?: ViewParam } | null = null;
  const r = renderSized(
    <BestsView
      app={app}
      columns={80}
      rows={23}
      outDir="."
      inputActive
      setCapturing={() => {}}
      open={(id, param) => {
        opened = { id, param };
      }}
    />,
    80,
    24,
  );
  const text = await waitFor(r.lastFrame, (t) => t.includes("Bests ("));
  const lines = text.split("\n");
  assert.equal(lines[0], "Bests (2 circuits, 3 bests)");
  assert.equal(
    lines[1],
    "  Circuit                   Car                            Best      Gap Behind",
  );
  // By circuit (Other Park, Test Ring), then time.
  assert.equal(lines[2], "> " + row("Other Park", carName(NSX), park.time, "fastest", 1));
  assert.equal(lines[3], "  " + row("Test Ring", carName(NSX), ring.time, "fastest", 5));
  assert.equal(
    lines[4],
    "  " + row("Test Ring", carName(OTHER_CAR), other.time, signed(other.time - ring.time), 1),
  );
  assert.equal(lines.length, 7);
  for (const l of lines) assert.ok([...l].length <= 80, l);

  // ↓ moves the selection; Enter opens the lap in Analysis against the outright best.
  r.stdin.write(KEY.down);
  await waitFor(r.lastFrame, (t) => t.includes("> Test Ring"));
  r.stdin.write(KEY.down);
  await waitFor(r.lastFrame, (t) => t.split("\n")[4].startsWith("> Test Ring"));
  // Held at the last row: Down then Enter in one burst opens the last row's lap.
  r.stdin.write(KEY.down + KEY.enter);
  await waitFor(() => opened ? "opened" : "", (t) => t === "opened");
  assert.deepEqual(opened, { id: "analysis", param: { lap: other.id, ref: ring.id } });
  r.stdin.write(KEY.up);
  await waitFor(r.lastFrame, (t) => t.split("\n")[3].startsWith("> Test Ring"));
  r.stdin.write(KEY.enter);
  await waitFor(() => (opened?.param?.lap === ring.id ? "ring" : ""), (t) => t === "ring");
  // The outright best opens against the analysis view's own default reference.
  assert.deepEqual(opened, { id: "analysis", param: { lap: ring.id, ref: null } });
  r.unmount();
  close();
});

Deno.test("Enter on a best opens it in the Analysis view against its reference", async () => {
  const { app, close } = await memoryApp();
  const s = await seed(app);
  const ring = fastest(s.ring);
  const other = fastest(s.ringOther);
  const nextBest = fastest(s.ring.filter((l) => l.id !== ring.id));
  const r = renderSized(<AppView app={app} initialView="bests" />, 80, 24);
  await waitFor(r.lastFrame, (t) => t.includes("Bests (2 circuits"));
  // Two Downs in one burst move two rows.
  r.stdin.write(KEY.down.repeat(2));
  await waitFor(r.lastFrame, (t) => t.includes(`> Test Ring`) && t.includes(carName(OTHER_CAR)));
  r.stdin.write(KEY.enter);
  let text = await waitFor(r.lastFrame, (t) => t.includes("Theoretical best"));
  let lines = text.split("\n");
  assert.match(lines[0], /\[5 Analysis\]/);
  assert.ok(
    lines[1].startsWith(
      `Lap ${other.id} (S3 #${s.ringOther.indexOf(other) + 1}) ${formatLapTime(other.time)}  vs  ` +
        `ref ${ring.id} (S2 #1) ${formatLapTime(ring.time)}  ${signed(other.time - ring.time)}`,
    ),
    lines[1],
  );
  assert.ok(lines.length <= 23, `${lines.length}`);
  for (const l of lines) assert.ok([...l].length <= 80, l);

  // Back to Bests, the outright best: against the next best lap of its car.
  r.stdin.write("6");
  await waitFor(r.lastFrame, (t) => t.includes("Bests (2 circuits"));
  r.stdin.write(KEY.down);
  await waitFor(r.lastFrame, (t) => t.includes(`> Test Ring`));
  r.stdin.write(KEY.enter);
  text = await waitFor(
    r.lastFrame,
    (t) => t.includes("Theoretical best") && t.includes(`Lap ${ring.id} `),
  );
  lines = text.split("\n");
  assert.ok(
    lines[1].startsWith(
      `Lap ${ring.id} (S2 #1) ${formatLapTime(ring.time)}  vs  ref ${nextBest.id} (S1 #3) ` +
        `${formatLapTime(nextBest.time)}  ${signed(ring.time - nextBest.time)}`,
    ),
    lines[1],
  );
  r.unmount();
  close();
});

Deno.test("bests say when there are none, and follow laps as they are stored", async () => {
  const { app, close } = await memoryApp();
  const r = renderSized(<AppView app={app} initialView="bests" />, 80, 24);
  await waitFor(r.lastFrame, (t) => t.includes("No bests yet"));
  const { times } = await driveSession(app, { seed: 11, laps: 2, track: "Other Park" });
  const text = await waitFor(r.lastFrame, (t) => t.includes("Bests (1 circuit, 1 best)"));
  assert.ok(
    text.includes("> " + row("Other Park", carName(NSX), Math.min(...times), "fastest", 1)),
    text,
  );
  r.unmount();
  close();
});
