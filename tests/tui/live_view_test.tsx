import { strict as assert } from "node:assert";
import { render } from "ink-testing-library";
import { noFixtures } from "../_fixtures.ts";
import { liveLayout, LiveView, paceColor } from "../../src/tui/live_view.tsx";
import { LiveModel } from "../../src/tui/live_model.ts";
import { PacketRate } from "../../src/tui/packet_rate.ts";
import { SectorClock } from "../../src/tui/live_sectors.ts";
import type { LiveFrame, LiveFrameSource, RaceStrategy } from "../../src/app/live/live_frame.ts";
import { AppView } from "../../src/tui/app_view.tsx";
import { keyHandlerChanges } from "../../src/tui/use_keys.ts";
import { BAR_ON, LIGHT_ON } from "../../src/tui/bars.tsx";
import { deltaToTrace } from "../../src/core/analysis/live_delta.ts";
import { delta, lapTime } from "../../src/tui/format.ts";
import type { App } from "../../src/app/create_app.ts";
import type { LiveFrameService } from "../../src/app/live/live_frames.ts";
import { FLAG, type Frame } from "../../src/core/gt7/frame.ts";
import { syntheticFrames } from "../../src/core/synthetic/drive.ts";
import { isCompleteMap } from "../../src/tui/live_map.ts";
import {
  fakeTelemetry,
  feed,
  frames,
  keysSettled,
  memoryApp,
  plain,
  renderSized,
  SPA,
  SUZUKA,
  waitFor,
} from "./_harness.tsx";

const noop = () => {};
const viewProps = { columns: 100, rows: 23, outDir: ".", inputActive: true, setCapturing: noop };

/** The next packet after `f`, with some fields changed. */
function next(f: Frame, change: Partial<Frame>): Frame {
  return { ...f, packetId: f.packetId + 1, ...change };
}

/** Waits for the live frames' background reads, then ingests one more frame after `last`. */
async function oneMore(app: App, last: Frame): Promise<Frame> {
  await (app.frames as unknown as LiveFrameService).settled();
  const f = next(last, {});
  app.live.ingest(f);
  await app.live.flush();
  return f;
}

Deno.test({
  name: "live view after the Suzuka lap (format A) in 80x24: every figure, the map, the laps",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    app.attachTelemetry(fakeTelemetry());
    const list = frames(SUZUKA);
    await feed(app, list);
    const last = await oneMore(app, list.at(-1)!);
    // The figures below come from this frame.
    assert.equal(Math.round(last.speed * 3.6), 298);
    assert.equal(last.gear, 6);
    assert.equal(Math.round(last.engineRpm / 10) * 10, 7260);
    assert.deepEqual(last.tyreTemp.map(Math.round), [69, 71, 71, 72]);
    const d = app.frames.latest()!.delta;
    assert.deepEqual([d.reference_lap_id, d.reference_lap_ms], [1, 99036]);

    const r = renderSized(<AppView app={app} outDir="." apiUrl="http://127.0.0.1:8765" />, 80, 24);
    const text = await waitFor(r.lastFrame, (t) => t.includes("* best") && !t.includes("delta --"));
    const lines = text.split("\n");
    // Six tabs and the address do not fit roomy at 80 columns: compact tabs, no scheme, `? help`.
    assert.equal(
      lines[0],
      "[1 Live] 2 Sessions 3 Survey 4 Tracks 5 Analysis 6 Bests  127.0.0.1:8765  ? help",
    );
    assert.equal(lines[1], "● connected  console 192.168.1.30  format A  60 pkt/s  drops 5");
    // Named from its reference line while lap 1 was driven: the badge says so.
    assert.equal(lines[2], "Session 1  Suzuka Circuit [matched by reference]  McLaren VGT  1 lap");
    // The gap and the prediction are the live frame's, to the hundredth.
    assert.equal(
      lines[4],
      `Lap 2  0:01.7  delta ${delta(d.delta_ms)}  pred ${
        lapTime(Math.round(d.predicted_lap_ms! / 10) * 10).slice(0, -1)
      }  vs your best · Suzuka Circuit 1:39.036`,
    );
    // The map (the best lap's line, no bundle) takes 24 columns right of the readouts.
    const left = (i: number) => [...lines[i]].slice(0, 55).join("").trimEnd();
    assert.equal(left(6), `Speed 298 km/h  Gear 6  RPM  7260 ${"□".repeat(19)}`);
    assert.equal(left(7), `Throttle ${BAR_ON.repeat(39)} 100%`);
    assert.equal(left(8), `Brake    ${"░".repeat(39)}   0%`);
    assert.equal(left(9), "Fuel 100.0 L  laps left --");
    assert.equal(left(10), "Tyres °C  FL 69  FR 71  RL 71  RR 72   Aids tcs asm");
    const map = lines.slice(5, 11).map((l) => [...l].slice(56).join(""));
    assert.ok(map.every((l) => [...l].length === 24 && /^[\u2800-\u28ff●]+$/.test(l)), text);
    assert.equal(map.join("").split("●").length, 2, "one car marker");
    assert.equal(lines[12], " Lap  Time        Fuel Events");
    assert.equal(lines[13], "   1  1:39.036    0.00      7  * best");
    assert.ok(lines.length <= 23, `${lines.length} lines`);
    for (const line of lines) assert.ok([...line].length <= 80, line);
    r.unmount();
    close();
  },
});

Deno.test({
  name: "the delta is the live frame's gap to the best lap's path at the car's position",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    const list = frames(SUZUKA);
    await feed(app, list);
    const last = await oneMore(app, list.at(-1)!);
    const best = await app.sessions.lap(1);
    const trace = { t: best.samples.t, x: best.samples.pos_x, z: best.samples.pos_z };
    const d = deltaToTrace(trace, last.posX, last.posZ, 104 * 1000 / 60, null)!;
    // Both laps cross the line flat out: 1.7 s in, they are within a tenth.
    assert.ok(Math.abs(d.deltaMs) < 100, String(d.deltaMs));
    assert.equal(app.frames.latest()!.delta.delta_ms, Math.round(d.deltaMs));
    const r = render(<LiveView app={app} {...viewProps} />);
    const text = await waitFor(r.lastFrame, (t) => t.includes("* best") && !t.includes("delta --"));
    assert.ok(text.includes(`delta ${delta(Math.round(d.deltaMs / 10) * 10)}  pred `), text);
    r.unmount();
    close();
  },
});

Deno.test({
  name: "format C: the lap timer is the packet's lap clock, and Spa's lap shows 1:55.244",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    const list = frames(SPA);
    await feed(app, list.slice(0, 3001));
    assert.equal(list[3000].surface!.lapTimeMs, 50034);
    const r = render(<LiveView app={app} {...viewProps} />);
    let text = await waitFor(r.lastFrame, (t) => t.includes("Lap 1"));
    assert.ok(
      text.includes("Lap 1  0:50.0  delta --  predicted -:--.--  best ever -:--.---"),
      text,
    );
    assert.ok(text.includes("no telemetry source"));
    // Named from its reference line 1,750 packets into the lap: the session exists, with no lap yet.
    assert.ok(
      text.includes("Session 1  Circuit de Spa-Francorchamps [matched by reference]"),
      text,
    );
    assert.ok(text.includes("Speed 119 km/h  Gear 2"));
    assert.ok(text.includes("No laps in this session yet."));

    await feed(app, list.slice(3001));
    text = await waitFor(r.lastFrame, (t) => t.includes("* best"));
    assert.ok(
      text.includes("Session 1  Circuit de Spa-Francorchamps [matched by reference]"),
      text,
    );
    assert.ok(/ {3}1 {2}1:55\.244 +\d+\.\d\d +\d+ +\d+ +\d+% {2}\* best/.test(text), text);
    // The boundary packet still carries the old lap's clock (115,250 ms).
    assert.ok(text.includes("Lap 2  1:55.2"), text);
    r.unmount();
    close();
  },
});

Deno.test({
  name: "aids and rev lights follow the latest frame",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    const list = frames(SUZUKA);
    await feed(app, list);
    const r = renderSized(<AppView app={app} />, 80, 24);
    await waitFor(r.lastFrame, (t) => t.includes("Aids tcs asm"));
    let f = next(list.at(-1)!, { flags: list.at(-1)!.flags | FLAG.tcs, engineRpm: 8750 });
    app.live.ingest(f);
    let text = await waitFor(r.lastFrame, (t) => t.includes("Aids TCS asm"));
    // 8750 rpm is halfway from 8500 to 9000: 10 of the 19 lights that fit beside the map.
    assert.equal([...text].filter((c) => c === LIGHT_ON).length, 10);
    f = next(f, { flags: f.flags | FLAG.asm, engineRpm: 9100 });
    app.live.ingest(f);
    text = await waitFor(r.lastFrame, (t) => t.includes("Aids TCS ASM"));
    assert.equal([...text].filter((c) => c === LIGHT_ON).length, 19);
    r.unmount();
    await app.live.flush();
    close();
  },
});

Deno.test({
  name: "a wider terminal gets longer bars and more lap columns",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    await feed(app, frames(SUZUKA));
    const r = renderSized(<AppView app={app} />, 120, 40);
    const text = await waitFor(r.lastFrame, (t) => t.includes("* best"));
    const lines = text.split("\n");
    // 36 columns of map, 83 of readouts: a bar of 67.
    assert.ok(lines.some((l) => l.startsWith(`Throttle ${BAR_ON.repeat(67)} 100%   `)), text);
    assert.ok(lines.includes(" Lap  Time        Fuel Events  Top km/h Full thr"), text);
    assert.ok(lines.includes("   1  1:39.036    0.00      7       356      51%  * best"), text);
    r.unmount();
    close();
  },
});

Deno.test("with no telemetry and no store contents the live view says so", async () => {
  const { app, close } = await memoryApp();
  app.attachTelemetry(
    fakeTelemetry({ connected: false, packets_per_second: 0, rejected: 0, missing: 0 }),
  );
  const r = render(<LiveView app={app} {...viewProps} />);
  const text = plain(r.lastFrame());
  assert.ok(text.includes("○ waiting for console 192.168.1.30  format A  0 pkt/s  drops 0"), text);
  assert.ok(text.includes("Lap -  -:--.-  delta --  predicted -:--.--  best ever -:--.---"), text);
  assert.ok(text.includes("No telemetry yet."), text);
  assert.ok(text.includes("No laps in this session yet."), text);
  r.unmount();
  close();
});

Deno.test("listening without a console names the local address", async () => {
  const { app, close } = await memoryApp();
  app.attachTelemetry(fakeTelemetry({ connected: false, console: null, packet_format: null }));
  const r = render(<LiveView app={app} {...viewProps} />);
  assert.ok(
    plain(r.lastFrame()).includes("○ listening on 0.0.0.0:33740 (no console set)  format A"),
    r.lastFrame(),
  );
  r.unmount();
  close();
});

/** A live frame with plain figures; override what a test needs. */
function liveFrame(over: Partial<LiveFrame> = {}): LiveFrame {
  return {
    packet_id: 1,
    at: "2026-11-21T12:00:00.000Z",
    speed_kmh: 201.4,
    gear: 4,
    suggested_gear: null,
    rpm: 6543,
    rev_limit: false,
    rpm_alert: { min: 6000, max: 7000 },
    throttle_pct: 75.3,
    brake_pct: 0,
    clutch: 0,
    boost_bar: 0,
    fuel: 30.94,
    fuel_capacity: 100,
    fuel_laps_left: null,
    water_temp_c: 85,
    oil_temp_c: 100,
    oil_pressure_bar: 4,
    tyre_temp_c: [80.4, 81, 79.6, 78],
    aids: { tcs: true, asm: false },
    position: { x: 0, y: 0, z: 0 },
    distance_m: 0,
    lap: 2,
    lap_clock_ms: 0,
    race_position: null,
    total_positions: null,
    delta: {
      delta_ms: null,
      predicted_lap_ms: null,
      reference_lap_id: null,
      reference_lap_ms: null,
      reference_label: null,
      reference_driver: null,
    },
    sector: 1,
    strategy: {
      laps_used: 0,
      fuel_per_lap: null,
      lap_time_ms: null,
      laps_to_empty: null,
      minutes_to_empty: null,
    },
    next_brake: null,
    ...over,
  };
}

/** A frame source a test pushes frames into, as the app's would deliver them. */
class FakeFrames implements LiveFrameSource {
  #latest: LiveFrame | null = null;
  #fns = new Set<(f: LiveFrame) => void>();
  push(over: Partial<LiveFrame>): LiveFrame {
    const f = liveFrame({ packet_id: (this.#latest?.packet_id ?? 0) + 1, ...over });
    this.#latest = f;
    for (const fn of this.#fns) fn(f);
    return f;
  }
  latest() {
    return this.#latest;
  }
  subscribe(_hz: number, fn: (f: LiveFrame) => void) {
    this.#fns.add(fn);
    return () => this.#fns.delete(fn);
  }
  strategy(): Promise<RaceStrategy> {
    return Promise.reject(new Error("not in this test"));
  }
}

Deno.test("sector splits: timed from sector changes and the stored lap, paced against the bests", () => {
  const clock = new SectorClock();
  const bests = [33819, 34392, 30824];
  // Joined mid-lap 1 in sector 2: its splits are unknown.
  clock.frame({ lap: 1, sector: 2, lap_clock_ms: 40000 });
  clock.frame({ lap: 1, sector: 3, lap_clock_ms: 70000 });
  assert.deepEqual(clock.row(bests)?.sectors.map((k) => [k.ms, k.pace, k.current]), [
    [null, null, false],
    [null, null, false],
    [null, null, true],
  ]);
  clock.frame({ lap: 2, sector: 1, lap_clock_ms: 0 });
  clock.frame({ lap: 2, sector: 1, lap_clock_ms: 16000 });
  clock.frame({ lap: 2, sector: 2, lap_clock_ms: 33719 });
  clock.frame({ lap: 2, sector: 3, lap_clock_ms: 68311 });
  let row = clock.row(bests)!;
  assert.deepEqual([row.lap, row.previous], [2, false]);
  assert.deepEqual(row.sectors.map((k) => [k.n, k.ms, k.bestMs, k.pace, k.current]), [
    [1, 33719, 33819, "faster", false],
    [2, 34592, 34392, "slower", false],
    [3, null, 30824, null, true],
  ]);
  // Lap 3 begins; lap 2's last sector closes when lap 2 is stored at 1:39.000.
  clock.frame({ lap: 3, sector: 1, lap_clock_ms: 17 });
  clock.lapStored(2, 99000);
  row = clock.row(bests)!;
  assert.deepEqual([row.lap, row.previous], [2, true]);
  assert.deepEqual(row.sectors.map((k) => [k.ms, k.pace]), [
    [33719, "faster"],
    [34592, "slower"],
    [30689, "faster"],
  ]);
  // Lap 3's first split replaces lap 2's row; an equal time counts as on the best.
  clock.frame({ lap: 3, sector: 2, lap_clock_ms: 33819 });
  row = clock.row(bests)!;
  assert.deepEqual([row.lap, row.previous], [3, false]);
  assert.deepEqual(row.sectors.map((k) => [k.ms, k.pace, k.current]), [
    [33819, "faster", false],
    [null, null, true],
    [null, null, false],
  ]);
});

Deno.test("sector splits on the first lap after a reference: sector 1 is timed from the line", () => {
  const clock = new SectorClock();
  const bests = [33819, 34392, 30824];
  // Lap 1 had no reference, so no sectors; lap 1 is stored and read as the reference while lap 2
  // is under way: its frames carry a sector only from 1.5 s in.
  clock.frame({ lap: 1, sector: null, lap_clock_ms: 90000 });
  clock.lapStored(1, 99036);
  clock.frame({ lap: 2, sector: null, lap_clock_ms: 200 });
  clock.frame({ lap: 2, sector: 1, lap_clock_ms: 1500 });
  assert.deepEqual(clock.row(bests)?.sectors.map((k) => [k.ms, k.current]), [
    [null, true],
    [null, false],
    [null, false],
  ]);
  clock.frame({ lap: 2, sector: 2, lap_clock_ms: 33719 });
  clock.frame({ lap: 2, sector: 3, lap_clock_ms: 68311 });
  assert.deepEqual(clock.row(bests)?.sectors.map((k) => [k.ms, k.pace, k.current]), [
    [33719, "faster", false],
    [34592, "slower", false],
    [null, null, true],
  ]);

  // At the line the car sits on the reference's end too: a lap may start in the last sector.
  const atLine = new SectorClock();
  atLine.frame({ lap: 3, sector: 3, lap_clock_ms: 17 });
  atLine.frame({ lap: 3, sector: 1, lap_clock_ms: 250 });
  atLine.frame({ lap: 3, sector: 2, lap_clock_ms: 33819 });
  assert.deepEqual(atLine.row(bests)?.sectors.map((k) => [k.ms, k.current]), [
    [33819, false],
    [null, true],
    [null, false],
  ]);

  // A previous lap with no split does not hide the lap being driven.
  const joined = new SectorClock();
  joined.frame({ lap: 1, sector: 3, lap_clock_ms: 70000 });
  joined.frame({ lap: 2, sector: 1, lap_clock_ms: 16 });
  const row = joined.row(bests)!;
  assert.deepEqual([row.lap, row.previous], [2, false]);
  assert.deepEqual(row.sectors.map((k) => [k.ms, k.current]), [
    [null, true],
    [null, false],
    [null, false],
  ]);
});

Deno.test({
  name: "the live view shows sector splits on the first lap driven after a reference exists",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    await feed(app, frames(SUZUKA));
    const source = new FakeFrames();
    const gap = {
      delta_ms: -254,
      predicted_lap_ms: 98782,
      reference_lap_id: 1,
      reference_lap_ms: 99036,
      reference_label: null,
      reference_driver: null,
    };
    const r = render(<LiveView app={app} {...viewProps} frames={source} />);
    // Lap 1 without a reference: no sectors.
    source.push({ lap: 1, sector: null, lap_clock_ms: 95000 });
    await waitFor(r.lastFrame, (t) => t.includes("Lap 1  1:35.0"));
    // Lap 2: the reference is read after the line, so the first frames have neither gap nor sector.
    source.push({ lap: 2, sector: null, lap_clock_ms: 100 });
    source.push({ lap: 2, sector: 1, lap_clock_ms: 1500, delta: gap });
    // The circuit's sector count arrives with the bests, read after the frame may be drawn:
    // wait for the line as it stands once both are in.
    let text = await waitFor(
      r.lastFrame,
      (t) => t.includes("Lap 2  0:01.5") && t.includes("S3 "),
    );
    assert.ok(text.includes("Sectors  S1 …  S2 --  S3 --"), text);
    source.push({ lap: 2, sector: 2, lap_clock_ms: 33719, delta: gap });
    source.push({ lap: 2, sector: 2, lap_clock_ms: 40000, delta: gap });
    text = await waitFor(r.lastFrame, (t) => t.includes("Lap 2  0:40.0") && t.includes("S3 "));
    assert.ok(text.includes("Sectors  S1 33.72  S2 …  S3 --"), text);
    r.unmount();
    close();
  },
});

Deno.test({
  name: "from a fake frame source: delta, prediction, sector colours, fuel and pit lap, exact",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    await feed(app, frames(SUZUKA));
    const car = app.live.session!.car_id;
    const bests = await app.analysis.sectors({ track: "Suzuka Circuit", car });
    assert.deepEqual(bests.sectors.map((k) => k.best_s), [33.819, 34.392, 30.824]);
    const source = new FakeFrames();
    const gap = {
      delta_ms: -254,
      predicted_lap_ms: 98782,
      reference_lap_id: 1,
      reference_lap_ms: 99036,
      reference_label: null,
      reference_driver: null,
    };
    const model = new LiveModel(app, { frames: source });
    model.start();
    await model.settled();
    source.push({ lap: 2, sector: 1, lap_clock_ms: 0 });
    source.push({ lap: 2, sector: 2, lap_clock_ms: 33719 });
    source.push({ lap: 2, sector: 3, lap_clock_ms: 68311, delta: gap });
    source.push({
      lap: 2,
      sector: 3,
      lap_clock_ms: 70000,
      delta: gap,
      fuel_laps_left: 12.34,
      strategy: {
        laps_used: 3,
        fuel_per_lap: 2.5,
        lap_time_ms: 100000,
        laps_to_empty: 12.34,
        minutes_to_empty: 20.5,
      },
    });
    // The bests are read in the background after the start.
    await model.settled();
    const s = model.snapshot();
    assert.deepEqual([s.lap, s.timerMs, s.deltaMs, s.predictedMs, s.referenceMs], [
      2,
      70000,
      -250,
      98780,
      99036,
    ]);
    assert.deepEqual(s.sectors?.sectors.map((k) => [k.ms, k.pace]), [
      [33719, "faster"],
      [34592, "slower"],
      [null, null],
    ]);
    // 70 % into lap 2 with 12.34 laps of fuel: it runs dry in lap 15, so pit after lap 14.
    assert.deepEqual(s.fuel, { perLap: 2.5, lapsLeft: 12.3, pitLap: 14 });
    assert.deepEqual(
      [s.car?.speedKmh, s.car?.gear, s.car?.rpm, s.car?.throttlePct, s.car?.fuel, s.car?.tyres],
      [201, "4", 6540, 75, 30.9, [80, 81, 80, 78]],
    );
    assert.deepEqual([paceColor("faster"), paceColor("slower"), paceColor(null)], [
      "green",
      "yellow",
      undefined,
    ]);
    model.stop();

    const r = render(<LiveView app={app} {...viewProps} frames={source} />);
    source.push({ lap: 2, sector: 1, lap_clock_ms: 0, delta: gap });
    const text = await waitFor(r.lastFrame, (t) => t.includes("Lap 2  0:00.0"));
    assert.ok(text.includes("Lap 2  0:00.0  delta -0.25  predicted 1:38.78  best ever 1:39.036"));
    source.push({ lap: 2, sector: 2, lap_clock_ms: 33719, delta: gap });
    source.push({
      lap: 2,
      sector: 2,
      lap_clock_ms: 50000,
      delta: gap,
      fuel_laps_left: 12.34,
      strategy: {
        laps_used: 3,
        fuel_per_lap: 2.5,
        lap_time_ms: 100000,
        laps_to_empty: 12.34,
        minutes_to_empty: 20.5,
      },
    });
    // The view's own model reads the sector bests in the background: S3 shows once they are read.
    const later = await waitFor(r.lastFrame, (t) => t.includes("Sectors  S1 33.72  S2 …  S3 --"));
    assert.ok(later.includes("Fuel 30.9 L  2.50 L/lap  12.3 laps left  pit lap 13"), later);
    assert.ok(later.includes("Speed 201 km/h  Gear 4  RPM  6540"), later);
    assert.ok(later.includes("Aids TCS asm"), later);
    r.unmount();
    close();
  },
});

Deno.test("a silent link greys the readouts and says how long ago the last packet came", async () => {
  const { app, close } = await memoryApp();
  app.attachTelemetry(
    fakeTelemetry({ connected: false, last_packet_at: "2026-11-21T12:00:00.000Z" }),
  );
  const source = new FakeFrames();
  source.push({ at: "2026-11-21T12:00:00.000Z", lap: 2, lap_clock_ms: 12345 });
  let now = Date.parse("2026-11-21T12:00:00.400Z");
  const r = render(<LiveView app={app} {...viewProps} frames={source} now={() => now} />);
  let text = await waitFor(r.lastFrame, (t) => t.includes("Lap 2"));
  assert.ok(text.includes("○ waiting for console 192.168.1.30  format A"), text);
  assert.ok(!text.includes("last packet"), text);
  // 12.4 s of silence: whole seconds, and the readouts stay (greyed) for reference.
  now = Date.parse("2026-11-21T12:00:12.400Z");
  text = await waitFor(r.lastFrame, (t) => t.includes("last packet"));
  // No packet was decoded in the last 2 s of the view's clock: the rate is 0, whatever the
  // source's stale one-second figure says.
  assert.ok(
    text.includes("○ link lost: last packet 12 s ago  console 192.168.1.30  format A  0 pkt/s"),
    text,
  );
  assert.ok(text.includes("Lap 2  0:12.3"), text);
  assert.ok(text.includes("Speed 201 km/h"), text);
  const model = new LiveModel(app, { frames: source, now: () => now });
  assert.deepEqual([model.snapshot().link.stale, model.snapshot().link.lastPacketS], [true, 12]);
  now = Date.parse("2026-11-21T12:00:01.000Z");
  assert.deepEqual([model.snapshot().link.stale, model.snapshot().link.lastPacketS], [false, 1]);
  await model.settled();
  r.unmount();
  close();
});

Deno.test("the live view reflows to every size it is given, 80x24 down to a prompt's share", async () => {
  const { app, close } = await memoryApp();
  const source = new FakeFrames();
  source.push({ lap: 2, lap_clock_ms: 5000 });
  for (const [columns, rows] of [[80, 23], [80, 14], [100, 29], [60, 10]]) {
    const r = render(
      <LiveView app={app} {...viewProps} columns={columns} rows={rows} frames={source} />,
    );
    const text = await waitFor(r.lastFrame, (t) => t.includes("Speed 201"));
    const lines = text.split("\n");
    assert.ok(lines.length <= rows - 1, `${columns}x${rows}: ${lines.length} lines\n${text}`);
    for (const line of lines) assert.ok([...line].length <= columns, `${columns}x${rows}: ${line}`);
    assert.ok(text.includes("Lap 2  0:05.0"), text);
    r.unmount();
  }
  assert.deepEqual(liveLayout(80, 23), {
    width: 80,
    left: 55,
    map: { cols: 24, rows: 6 },
    spaced: true,
    lapRows: 11,
  });
  // A name prompt below leaves 14 rows: the readouts stay, the laps table shrinks to a lap.
  assert.deepEqual(liveLayout(80, 14).lapRows, 2);
  assert.deepEqual([liveLayout(80, 11).spaced, liveLayout(80, 11).lapRows], [false, 0]);
  assert.deepEqual(liveLayout(60, 23).map, { cols: 0, rows: 0 });
  close();
});

/**
 * The live map's source after a survey of `share` of synthetic circuit 7's
 * left border was saved as "Suzuka Circuit", then the Suzuka lap was driven
 * (its session named Suzuka Circuit by the reference lines).
 */
async function mapAfterSurvey(share: number) {
  const { app, close } = await memoryApp();
  const survey = [...syntheticFrames({ seed: 7, laps: 1, mode: "survey" })];
  await app.survey.start({ track: "Suzuka Circuit" });
  await feed(app, survey.slice(0, Math.floor(survey.length * share)));
  await app.survey.stop();
  const doc = await app.geometry.compiled("suzuka-circuit");
  await feed(app, frames(SUZUKA));
  assert.equal(app.live.session?.track_name, "Suzuka Circuit");
  const model = new LiveModel(app);
  model.start();
  await model.settled();
  const map = model.snapshot({ cols: 24, rows: 6 }).map;
  model.stop();
  close();
  return { coverage: doc.coverage, complete: isCompleteMap(doc), kind: map?.kind ?? null, map };
}

Deno.test({
  name: "the live map uses a survey only once it is a complete map, else the best lap's line",
  ignore: noFixtures,
  async fn() {
    // A fifth of a lap of the left border: an open stretch, 100 % of itself.
    const part = await mapAfterSurvey(0.2);
    assert.deepEqual([part.coverage.L.closed, part.coverage.R.closed, part.coverage.L.pct], [
      false,
      false,
      100,
    ]);
    assert.equal(part.complete, false);
    assert.equal(part.kind, "line");
    // The driven line is the best lap's, and the car is on it.
    assert.equal(part.map!.lines.join("").split("●").length, 2, "one car marker");
    // A whole lap of it: the left border closes into a loop, a map of the whole circuit.
    const whole = await mapAfterSurvey(1);
    assert.deepEqual([whole.coverage.L.closed, whole.complete, whole.kind], [
      true,
      true,
      "geometry",
    ]);
  },
});

Deno.test("the frame's cue for the corner ahead is shown on the Live view, and goes with it", async () => {
  const { app, close } = await memoryApp();
  const cue = {
    text: "Turn 4: brake later",
    n: 4,
    name: "Turn 4",
    loss_s: 0.284,
    lap_id: 1,
    at_m: 1200,
  };
  for (const [columns, rows] of [[100, 23], [80, 12]] as const) {
    const source = new FakeFrames();
    const r = render(
      <LiveView app={app} {...viewProps} columns={columns} rows={rows} frames={source} />,
    );
    source.push({ lap: 2, sector: null, lap_clock_ms: 30000, cue });
    let text = await waitFor(r.lastFrame, (t) => t.includes("Lap 2  0:30.0"));
    // On its own row before the lap line: the free row when there is one, else the session's.
    const lines = text.split("\n");
    const at = lines.indexOf("▶ Turn 4: brake later  lost 0.28 s last lap");
    assert.equal(at, lines.findIndex((l) => l.startsWith("Lap 2")) - 1, text);
    source.push({ lap: 2, sector: null, lap_clock_ms: 31000, cue: null });
    text = await waitFor(r.lastFrame, (t) => t.includes("Lap 2  0:31.0"));
    assert.ok(!text.includes("brake later"), text);
    r.unmount();
  }
  close();
});

Deno.test({
  name: "the live view keeps the lap's sectors across a view switch: 2 then 1",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    await feed(app, frames(SUZUKA));
    const source = new FakeFrames();
    // The dashboard over the app with these frames: its sector timing follows them, not the view.
    const face = { ...app, frames: source };
    const k0 = keyHandlerChanges();
    const r = renderSized(<AppView app={face} />, 100, 30);
    await keysSettled(k0);
    source.push({ lap: 2, sector: 1, lap_clock_ms: 0 });
    source.push({ lap: 2, sector: 2, lap_clock_ms: 33719 });
    source.push({ lap: 2, sector: 2, lap_clock_ms: 40000 });
    await waitFor(r.lastFrame, (t) => t.includes("Sectors  S1 33.72  S2 …  S3 --"));
    const away = keyHandlerChanges();
    r.stdin.write("2");
    await waitFor(r.lastFrame, (t) => t.includes("[2 Sessions]"));
    await keysSettled(away);
    r.stdin.write("1");
    // A fresh view: no frame came since, so S1 can only be the dashboard's timing (S3 shows once
    // the view has read the sector bests again).
    const back = await waitFor(r.lastFrame, (t) => t.includes("[1 Live]") && t.includes("S3 --"));
    assert.ok(back.includes("Lap 2  0:40.0"), back);
    assert.ok(back.includes("Sectors  S1 33.72  S2 …  S3 --"), back);
    r.unmount();
    close();
  },
});

Deno.test("pkt/s is steady over bursts: packets of the last 2 s on the model's clock", async () => {
  const { app, close } = await memoryApp();
  const decoded = { n: 0 };
  // The receiver's one-second windows read a burst in halves: its figure jumps.
  const jumpy = [605, 1139, 1538, 2286];
  let t = 0;
  const status = fakeTelemetry().status();
  app.attachTelemetry({
    status: () => ({
      ...status,
      decoded: decoded.n,
      packets_per_second: jumpy[Math.floor(t / 1000) % 4],
    }),
    close: () => Promise.resolve(),
  });
  const model = new LiveModel(app, { frames: new FakeFrames(), now: () => t });
  const shown: number[] = [];
  // 1200 packets a second, arriving as a burst of 600 every 500 ms; a snapshot every 100 ms.
  for (t = 0; t <= 5000; t += 100) {
    if (t > 0 && t % 500 === 0) decoded.n += 600;
    shown.push(model.snapshot().link.pps);
  }
  // Until the counter spans a second, the receiver's own figure; then exactly 1200.
  assert.deepEqual(shown.slice(0, 10), [605, 605, 605, 605, 605, 605, 605, 605, 605, 605]);
  assert.ok(shown.slice(20).every((pps) => pps === 1200), shown.join(" "));
  close();
});

Deno.test("PacketRate: over the newest sample at least 2 s old; a restarted counter starts afresh", () => {
  const rate = new PacketRate();
  assert.equal(rate.sample(0, 0), null);
  assert.equal(rate.sample(50, 500), null);
  assert.equal(rate.sample(60, 1000), 60);
  // From the 500 ms sample, the newest at least 2 s old (the 0 ms one is dropped).
  assert.equal(rate.sample(150, 2500), 50);
  assert.equal(rate.sample(200, 3000), 70);
  assert.equal(rate.sample(10, 3100), null);
});
