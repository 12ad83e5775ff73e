import { strict as assert } from "node:assert";
import type { HubStatus } from "../../src/app/hub_link/hub_status.ts";
import { hubNote } from "../../src/tui/hub_note.ts";
import { linkLine } from "../../src/tui/link_line.ts";
import type { LinkState } from "../../src/tui/live_figures.ts";

const base: HubStatus = {
  url: "http://hub.local:8780",
  waiting: 0,
  sent: 3,
  parked: 0,
  state: "idle",
  last_error: null,
};

Deno.test("the hub note says the hub's state in a few characters", () => {
  assert.equal(hubNote(null), null);
  assert.deepEqual(hubNote(base), { text: "hub ✓ 3↑", trouble: false });
  assert.deepEqual(hubNote({ ...base, state: "sending", waiting: 2 }), {
    text: "hub ↑ 2 waiting",
    trouble: false,
  });
  assert.deepEqual(hubNote({ ...base, state: "backoff", waiting: 12, last_error: "x" }), {
    text: "hub ✗ 12 waiting",
    trouble: true,
  });
  assert.deepEqual(hubNote({ ...base, state: "stopped", waiting: 4 }), {
    text: "hub ✗ token, 4 waiting",
    trouble: true,
  });
  assert.deepEqual(hubNote({ ...base, parked: 1 }), { text: "hub ✓ 3↑ 1 parked", trouble: true });
});

const link: LinkState = {
  state: "connected",
  console: "192.168.1.20",
  listen: "0.0.0.0:33740",
  format: "C",
  pps: 60,
  drops: 0,
  kernelDrops: null,
  record: null,
  lastPacketS: 0,
  stale: false,
};

Deno.test("the link line shows the hub; a narrow line lets a healthy hub go but keeps one in trouble", () => {
  const ok = { ...link, hub: hubNote(base) };
  assert.equal(
    linkLine(ok, 200),
    "hub ✓ 3↑  connected  console 192.168.1.20  format C  60 pkt/s  drops 0",
  );
  assert.equal(linkLine(ok, 30), "hub ✓ 3↑  connected  drops 0");
  assert.equal(linkLine(ok, 22), "connected  drops 0");
  const down = { ...link, hub: hubNote({ ...base, state: "backoff", waiting: 12 }) };
  assert.equal(linkLine(down, 36), "hub ✗ 12 waiting  connected  drops 0");
  // Past what the line can hold, the end is cut, never the hub's trouble.
  assert.equal(linkLine(down, 22), "hub ✗ 12 waiting  con…");
});
