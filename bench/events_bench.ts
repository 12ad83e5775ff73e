/**
 * Live naming latency.
 *
 * Target (issue 7): an SSE client connected during a demo run receives the
 * `session` event within 200 ms of the lap that named the session. The
 * scenario is the end-to-end test's (tests/e2e/_naming_over_sse.ts): the
 * fake console replays two laps of a synthetic circuit over loopback UDP at
 * 20x real time into a real logger, whose bundle of that circuit was
 * imported before the out-lap goes on, and a real HTTP client reads
 * GET /api/events. The delay runs from the packet that ends lap 1 reaching
 * the logger to the client parsing the event. Figures (median and worst of
 * three drives, five under BENCH_LONG=1) are printed before the Deno.bench
 * table.
 *
 * @module
 */
import { driveNamedOverSse } from "../tests/e2e/_naming_over_sse.ts";
import { LONG } from "./_long.ts";

const TARGET_MS = 200;
/** Each drive is some 10 s of paced UDP: three by default, five under BENCH_LONG=1. */
const DRIVES = LONG ? 5 : 3;

const delays: number[] = [];
for (let i = 0; i < DRIVES; i++) {
  const drive = await driveNamedOverSse();
  delays.push(drive.delayMs);
  await drive.close();
}
delays.sort((a, b) => a - b);
const median = delays[Math.floor(delays.length / 2)];
const worst = delays.at(-1)!;
console.log(
  `SSE session event after the naming lap: median ${median.toFixed(1)} ms, worst ${
    worst.toFixed(1)
  } ms over ${DRIVES} drives (target <= ${TARGET_MS} ms): ${worst <= TARGET_MS ? "ok" : "OVER"}`,
);

Deno.bench({
  name: "one drive: two laps over UDP, named over SSE",
  n: LONG ? 3 : 1,
  warmup: 0,
  async fn() {
    const drive = await driveNamedOverSse();
    await drive.close();
  },
});
