/**
 * What the hub sends on the live socket (issue #40): a message is taken
 * only whole and clean (it goes on a terminal line and is spoken), other
 * types and non-JSON are ignored; the live back-off stays within its bounds.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import fc from "fast-check";
import { parseHubMessage } from "../../../src/core/hub/live_message.ts";
import { LIVE_FIRST_MS, LIVE_MAX_MS, liveBackoffMs } from "../../../src/core/hub/hub_backoff.ts";

const ok = { id: 3, text: "Box this lap", from: "alice", sent_at: "2026-11-28T12:00:00.000Z" };
const wire = (m: Record<string, unknown>) => JSON.stringify({ type: "message", ...m });

Deno.test("a hub message is taken whole; other types and non-JSON are not messages", () => {
  assert.deepEqual(parseHubMessage(wire(ok)), ok);
  assert.equal(parseHubMessage(JSON.stringify({ type: "ping" })), null);
  assert.equal(parseHubMessage("not json"), null);
  assert.equal(parseHubMessage("[1]"), null);
});

Deno.test("a bad hub message is refused naming the field and the rule", () => {
  const refused = (m: Record<string, unknown>, message: string) =>
    assert.throws(() => parseHubMessage(wire(m)), { message });
  const rule = "must be 1 to 140 characters, not blank, no control characters";
  refused({ ...ok, text: "x".repeat(141) }, `hub message text ${rule}`);
  refused({ ...ok, text: "   " }, `hub message text ${rule}`);
  refused({ ...ok, text: "box\x1b[2J" }, `hub message text ${rule}`);
  refused({ ...ok, from: "a\nb" }, "hub message from must hold no control characters");
  assert.throws(() => parseHubMessage(wire({ ...ok, id: 0 })), /^Error: hub message id /);
  assert.throws(() => parseHubMessage(wire({ ...ok, extra: 1 })), /^Error: hub message /);
  assert.deepEqual(parseHubMessage(wire({ ...ok, text: "é".repeat(140) }))?.text, "é".repeat(140));
});

Deno.test("the live back-off is never under half the first wait nor at the cap, and never shrinks at a given jitter", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 200 }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (n, r) => {
        const ms = liveBackoffMs(n, r);
        assert.ok(ms >= LIVE_FIRST_MS / 2 && ms <= LIVE_MAX_MS, `${ms}`);
        assert.ok(liveBackoffMs(n + 1, r) >= ms);
      },
    ),
  );
  assert.deepEqual([1, 2, 3, 10].map((n) => liveBackoffMs(n, 0.5)), [750, 1500, 3000, 11250]);
});
