import { strict as assert } from "node:assert";
import { useEffect } from "react";
import { Text } from "ink";
import { render } from "ink-testing-library";
import { noFixtures } from "../_fixtures.ts";
import { LiveView } from "../../src/tui/live_view.tsx";
import { type Every, SAMPLE_MS, useSampled } from "../../src/tui/use_app_state.ts";
import type { App } from "../../src/app/create_app.ts";
import type { Frame } from "../../src/core/gt7/frame.ts";
import { feed, frames, memoryApp, plain, sleep, SUZUKA, waitFor } from "./_harness.tsx";

const noop = () => {};

/**
 * How long a wait for the screen may last: long enough that only a hang runs
 * into it, however busy the machine. Nothing here is a latency bound.
 */
const HANG_MS = 120_000;

/**
 * Ingests `list` evenly over `ms` milliseconds (in batches every 5 ms),
 * checking after each batch that no render happened synchronously. At
 * `stops` even points it pauses until `caughtUp` resolves (the screen
 * showing the car as it is then), so following the car is checked by what
 * is drawn, not by how many timer ticks a busy machine allowed.
 */
async function stream(
  app: App,
  list: readonly Frame[],
  ms: number,
  renders: () => number,
  stops: number,
  caughtUp: (frame: Frame) => Promise<unknown>,
): Promise<void> {
  let start = performance.now();
  let sent = 0;
  let stop = 1;
  while (sent < list.length) {
    await sleep(5);
    const due = Math.min(list.length, Math.ceil((performance.now() - start) / ms * list.length));
    const before = renders();
    const until = Math.min(due, Math.ceil(stop * list.length / stops));
    while (sent < until) app.live.ingest(list[sent++]);
    assert.equal(renders(), before, "a frame caused a render by itself");
    if (sent === Math.ceil(stop * list.length / stops)) {
      const paused = performance.now();
      await caughtUp(list[sent - 1]);
      // The pause is not part of the schedule: the rest keeps its pace.
      start += performance.now() - paused;
      stop++;
    }
  }
  await app.live.flush();
}

/**
 * The live view's speed line for `frame`: whole km/h of the live frame's
 * `speed_kmh`, which the frame source gives to 0.1 km/h (both faces show the
 * same number, so the view rounds the frame's value, not the packet's).
 */
const speedOf = (frame: Frame) => {
  const kmh = Math.round(Math.round(frame.speed * 3.6 * 10) / 10);
  return `Speed ${String(kmh).padStart(3)} km/h`;
};

for (const [count, label] of [[600, "60 Hz"], [6000, "600 Hz"]] as const) {
  Deno.test({
    name:
      `the live view redraws at most 20 times a second while ${count} frames arrive in 1 s (${label})`,
    ignore: noFixtures,
    async fn() {
      const { app, close } = await memoryApp();
      const list = frames(SUZUKA);
      // The run-up first, then lap 1 (speed, rpm and pedals change all the time).
      await feed(app, list.slice(0, 375));
      let renders = 0;
      const r = render(
        <LiveView
          app={app}
          columns={80}
          rows={23}
          outDir="."
          inputActive
          setCapturing={noop}
          onRender={() => renders++}
        />,
      );
      await waitFor(r.lastFrame, (t) => t.includes("Out lap"), HANG_MS);
      await sleep(2 * SAMPLE_MS);
      const before = renders;
      const t0 = performance.now();
      // Lap 1 of the capture, packet ids made consecutive, looped as needed. The view must
      // show the car's speed at five points along the way: it follows the car.
      await stream(
        app,
        repeatPackets(list.slice(375, 6317), count),
        1000,
        () => renders,
        5,
        (frame) => waitFor(r.lastFrame, (t) => t.includes(speedOf(frame)), HANG_MS),
      );
      const elapsed = performance.now() - t0;
      const drawn = renders - before;
      // A render only follows a sample, and samples are at least 50 ms apart (a late timer
      // fires once, never in a burst): at most one per 50 ms, plus one for the sample that may
      // fall at the very start.
      const ceiling = Math.floor(elapsed / SAMPLE_MS) + 1;
      assert.ok(drawn <= ceiling, `${drawn} renders in ${elapsed.toFixed(0)} ms`);
      await waitFor(r.lastFrame, (t) => t.includes(speedOf(app.live.lastFrame!)), HANG_MS);
      r.unmount();
      close();
    },
  });
}

/** `count` frames built from `base`, with consecutive packet ids, looping over `base`. */
function repeatPackets(base: readonly Frame[], count: number): Frame[] {
  const first = base[0].packetId;
  return Array.from(
    { length: count },
    (_, i) => ({ ...base[i % base.length], packetId: first + i }),
  );
}

/** A clock a test ticks by hand: what useSampled samples with, instead of a timer. */
class HandClock {
  #fns = new Set<() => void>();
  periods: number[] = [];
  every: Every = (fn, ms) => {
    this.periods.push(ms);
    this.#fns.add(fn);
    return () => this.#fns.delete(fn);
  };
  tick() {
    for (const fn of this.#fns) fn();
  }
}

Deno.test("useSampled renders only at a sample (every 50 ms), and only when the value changed", async () => {
  let value = 0;
  let renders = 0;
  const clock = new HandClock();
  function Probe() {
    const v = useSampled(() => ({ shown: Math.floor(value / 1000) }), SAMPLE_MS, clock.every);
    useEffect(() => {
      renders++;
    });
    return <Text>value {v.shown}</Text>;
  }
  const r = render(<Probe />);
  assert.equal(plain(r.lastFrame()), "value 0");
  await waitFor(() => String(renders), (n) => n === "1");
  assert.deepEqual(clock.periods, [SAMPLE_MS]);
  // The source changes 100 times between two samples: one render, at the sample.
  for (let i = 0; i < 100; i++) value += 100;
  clock.tick();
  await waitFor(() => String(renders), (n) => n === "2");
  assert.equal(plain(r.lastFrame()), "value 10");
  // A sample of a value still shown renders nothing: the next change's sample is the third render.
  value += 10;
  clock.tick();
  value += 1000;
  clock.tick();
  await waitFor(r.lastFrame, (t) => t === "value 11");
  await waitFor(() => String(renders), (n) => n === "3");
  assert.equal(renders, 3);
  r.unmount();
});
