import { strict as assert } from "node:assert";
import { messageLine, messageSpeech } from "../../src/web/hub_message.js";

const m = { id: 4, text: "Box this lap", from: "alice", sent_at: "2026-11-28T12:00:00.000Z" };

Deno.test("the live page shows the hub's message while the frames carry it and says each one once", () => {
  assert.equal(messageLine(m), "✉ alice: Box this lap");
  assert.equal(messageLine(null), null);
  assert.equal(messageLine(undefined), null);
  assert.equal(messageSpeech(m, 0), "Message from alice: Box this lap");
  assert.equal(messageSpeech(m, 3), "Message from alice: Box this lap");
  assert.equal(messageSpeech(m, 4), null);
  assert.equal(messageSpeech(null, 0), null);
});
