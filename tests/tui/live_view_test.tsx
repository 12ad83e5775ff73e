import { strict as assert } from "node:assert";
import { render } from "ink-testing-library";
import { noFixtures } from "../_fixtures.ts";
import { LiveView } from "../../src/tui/live_view.tsx";
import { AppView } from "../../src/tui/app_view.tsx";
import { BAR_ON, LIGHT_ON } from "../../src/tui/bars.tsx";
import { deltaToTrace } from "../../src/tui/live_delta.ts";
import { delta } from "../../src/tui/format.ts";
import { FLAG, type Frame } from "../../src/core/gt7/frame.ts";
import {
  fakeTelemetry,
  feed,
  frames,
  memoryApp,
  plain,
  renderSized,
  sleep,
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

Deno.test({
  name: "live view after the Suzuka lap (format A) in 80x24: every figure, the laps, the best",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    app.attachTelemetry(fakeTelemetry());
    const list = frames(SUZUKA);
    await feed(app, list);
    const last = list.at(-1)!;
    // The figures below come from this frame.
    assert.equal(Math.round(last.speed * 3.6), 298);
    assert.equal(last.gear, 6);
    assert.equal(Math.round(last.engineRpm / 10) * 10, 7260);
    assert.deepEqual(last.tyreTemp.map(Math.round), [69, 71, 71, 72]);

    const r = renderSized(<AppView app={app} outDir="." />, 80, 24);
    const text = await waitFor(r.lastFrame, (t) => t.includes("* best"));
    const lines = text.split("\n");
    assert.equal(
      lines[0].trimEnd(),
      "[1 Live]  2 Sessions   3 Survey   4 Tracks" + " ".repeat(24) + "? help  q quit",
    );
    assert.equal(lines[1], "● connected  console 192.168.1.30  format A  60 pkt/s  drops 5");
    // Named from its reference line while lap 1 was driven.
    assert.equal(lines[2], "Session 1  Suzuka Circuit  McLaren VGT  1 lap");
    // 103 packets into lap 2: 0:01.7 by the packet count.
    assert.match(lines[4], /^Lap 2 {2}0:01\.7 {2}delta [+-]\d\.\d\d {2}best 1:39\.036$/);
    assert.equal(lines[5], `Speed 298 km/h  Gear 6  RPM  7260 ${"□".repeat(30)}`);
    assert.equal(lines[6], `Throttle ${BAR_ON.repeat(64)} 100%`);
    assert.equal(lines[7], `Brake    ${"░".repeat(64)}   0%`);
    assert.equal(lines[8], "Fuel 100.0 L  laps left --");
    assert.equal(lines[9], "Tyres °C  FL 69  FR 71  RL 71  RR 72   Aids tcs asm");
    assert.equal(lines[11], " Lap  Time        Fuel Events");
    assert.equal(lines[12], "   1  1:39.036    0.00      7  * best");
    assert.ok(lines.length <= 23, `${lines.length} lines`);
    for (const line of lines) assert.ok([...line].length <= 80, line);
    r.unmount();
    close();
  },
});

Deno.test({
  name: "the delta is the gap to the best lap's path at the car's position",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    const list = frames(SUZUKA);
    await feed(app, list);
    const best = await app.sessions.lap(1);
    const last = list.at(-1)!;
    const trace = { t: best.samples.t, x: best.samples.pos_x, z: best.samples.pos_z };
    const d = deltaToTrace(trace, last.posX, last.posZ, 103 * 1000 / 60, null)!;
    // Both laps cross the line flat out: 1.7 s in, they are within a tenth.
    assert.ok(Math.abs(d.deltaMs) < 100, String(d.deltaMs));
    const r = render(<LiveView app={app} {...viewProps} />);
    const text = await waitFor(r.lastFrame, (t) => t.includes("* best") && !t.includes("delta --"));
    assert.ok(text.includes(`delta ${delta(Math.round(d.deltaMs / 10) * 10)}  best 1:39.036`));
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
    assert.ok(text.includes("Lap 1  0:50.0  delta --  best -:--.---"), text);
    assert.ok(text.includes("no telemetry source"));
    // Named from its reference line 1,750 packets into the lap: the session exists, with no lap yet.
    assert.ok(text.includes("Session 1  Circuit de Spa-Francorchamps  "), text);
    assert.ok(text.includes("Speed 119 km/h  Gear 2"));
    assert.ok(text.includes("No laps in this session yet."));

    await feed(app, list.slice(3001));
    text = await waitFor(r.lastFrame, (t) => t.includes("* best"));
    assert.ok(text.includes("Session 1  Circuit de Spa-Francorchamps  "), text);
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
    // 8750 rpm is halfway from 8500 to 9000: 15 of 30 lights.
    assert.equal([...text].filter((c) => c === LIGHT_ON).length, 15);
    f = next(f, { flags: f.flags | FLAG.asm, engineRpm: 9100 });
    app.live.ingest(f);
    text = await waitFor(r.lastFrame, (t) => t.includes("Aids TCS ASM"));
    assert.equal([...text].filter((c) => c === LIGHT_ON).length, 30);
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
    assert.ok(lines.includes(`Throttle ${BAR_ON.repeat(100)} 100%`), text);
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
  assert.ok(text.includes("Lap -  -:--.-  delta --  best -:--.---"), text);
  assert.ok(text.includes("No telemetry yet."), text);
  assert.ok(text.includes("No laps in this session yet."), text);
  await sleep(60);
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
