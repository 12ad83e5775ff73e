/**
 * The socket's rules (#40): 10 a second on a jittery timer all pass,
 * a burst past the bucket and any steady rate over 10 a second are cut to
 * 10 a second.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import fc from "fast-check";
import { FrameRate, MAX_FRAMES_PER_S } from "../../../src/app/hub/live_rules.ts";
import type { LiveHub } from "../../../src/app/hub/live_hub.ts";
import { LiveLink } from "../../../src/app/hub/live_link.ts";

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

Deno.test("a link passes 10 frames of a burst of 15 on its clock and says once that it dropped", async () => {
  const published: number[] = [];
  const hub = {
    publish: (_d: string, f: { packet_id: number }) => {
      published.push(f.packet_id);
      return Promise.resolve();
    },
  } as unknown as LiveHub;
  const sent: Record<string, unknown>[] = [];
  const link = new LiveLink(hub, "alice", (m) => sent.push(m), () => 1000);
  for (let i = 0; i < 15; i++) {
    await link.receive(JSON.stringify({ type: "frame", frame: { packet_id: i, at: "x", lap: 1 } }));
  }
  assertEquals(published, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assertEquals(link.dropped, 5);
  assertEquals(sent, [{
    type: "error",
    field: "frame",
    message: "frame more than 10 frames a second: dropped",
  }]);
  await link.receive("{");
  assertEquals(sent[1], { type: "error", field: "message", message: "message is not JSON" });
  await link.receive(JSON.stringify({ type: "frame", frame: { packet_id: "1", at: "x", lap: 1 } }));
  assertEquals(sent[2], {
    type: "error",
    field: "frame.packet_id",
    message: "frame.packet_id Invalid input: expected number, received string",
  });
});
