import { strict as assert } from "node:assert";
import { useEffect } from "react";
import { Text } from "ink";
import { render } from "ink-testing-library";
import { noFixtures } from "../_fixtures.ts";
import { LiveView } from "../../src/tui/live_view.tsx";
import { SAMPLE_MS, useSampled } from "../../src/tui/use_app_state.ts";
import type { App } from "../../src/app/context.ts";
import type { Frame } from "../../src/core/gt7/frame.ts";
import { feed, frames, memoryApp, plain, sleep, SUZUKA, waitFor } from "./_harness.tsx";

const noop = () => {};

/**
 * Ingests `list` evenly over `ms` milliseconds (in batches every 5 ms),
 * checking after each batch that no render happened synchronously.
 */
async function stream(
  app: App,
  list: readonly Frame[],
  ms: number,
  renders: () => number,
): Promise<void> {
  const start = performance.now();
  let sent = 0;
  while (sent < list.length) {
    await sleep(5);
    const due = Math.min(list.length, Math.ceil((performance.now() - start) / ms * list.length));
    const before = renders();
    while (sent < due) app.live.ingest(list[sent++]);
    assert.equal(renders(), before, "a frame caused a render by itself");
  }
  await app.live.flush();
}

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
      await waitFor(r.lastFrame, (t) => t.includes("Out lap"));
      await sleep(2 * SAMPLE_MS);
      const before = renders;
      const t0 = performance.now();
      // Lap 1 of the capture, packet ids made consecutive, looped as needed.
      await stream(app, repeatPackets(list.slice(375, 6317), count), 1000, () => renders);
      const elapsed = performance.now() - t0;
      const drawn = renders - before;
      // One render per 50 ms sample at most (plus the one a sample may start as the stream ends).
      const ceiling = Math.floor(elapsed / SAMPLE_MS) + 1;
      assert.ok(drawn <= ceiling, `${drawn} renders in ${elapsed.toFixed(0)} ms`);
      // ...and it does follow the car.
      assert.ok(drawn >= 5, `only ${drawn} renders`);
      const last = app.live.lastFrame!;
      await waitFor(
        r.lastFrame,
        (t) => t.includes(`Speed ${String(Math.round(last.speed * 3.6)).padStart(3)} km/h`),
      );
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

Deno.test("useSampled renders only when the sampled value changes, at most every 50 ms", async () => {
  let value = 0;
  let renders = 0;
  function Probe() {
    const v = useSampled(() => ({ shown: Math.floor(value / 1000) }));
    useEffect(() => {
      renders++;
    });
    return <Text>value {v.shown}</Text>;
  }
  const r = render(<Probe />);
  assert.equal(plain(r.lastFrame()), "value 0");
  // The source changes every millisecond, but the shown value only every 1000 changes.
  const timer = setInterval(() => value += 100, 1);
  await sleep(300);
  clearInterval(timer);
  const shown = Math.floor(value / 1000);
  // The last sample's frame is drawn a task after the sample: wait for it.
  await waitFor(r.lastFrame, (t) => t === `value ${shown}`, 2000);
  await sleep(SAMPLE_MS);
  assert.ok(renders <= shown + 1, `${renders} renders for ${shown} changes`);
  assert.ok(renders <= Math.ceil(400 / SAMPLE_MS) + 1, `${renders} renders`);
  // Nothing changes: nothing renders.
  const settled = renders;
  await sleep(4 * SAMPLE_MS);
  assert.equal(renders, settled);
  r.unmount();
});
