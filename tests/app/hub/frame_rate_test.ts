/**
 * The socket's frame rate (#40): 10 a second on a jittery timer all pass,
 * a burst past the bucket and any steady rate over 10 a second are cut to
 * 10 a second.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import fc from "fast-check";
import { FrameRate, MAX_FRAMES_PER_S } from "../../../src/app/hub/live_rules.ts";

/** Frames of `times` (ms) admitted. */
function admitted(times: readonly number[]): number {
  const rate = new FrameRate();
  return times.filter((t) => rate.admit(t)).length;
}

Deno.test("10 frames a second with up to 40 ms of jitter each all pass", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: -40, max: 40 }), { minLength: 600, maxLength: 600 }),
      (jitter) => {
        const times = jitter.map((j, i) => 1000 + i * 100 + j);
        assertEquals(admitted(times), 600);
      },
    ),
  );
});

Deno.test("a burst passes 10; 20 a second for 60 s passes 10 a second (and the first 10)", () => {
  assertEquals(admitted(Array(15).fill(5000)), MAX_FRAMES_PER_S);
  const times = Array.from({ length: 1200 }, (_, i) => i * 50);
  assertEquals(admitted(times), 10 + 600 - 1);
});
