import { strict as assert } from "node:assert";
import type { TelemetryStatus } from "../../src/app/live/telemetry_source.ts";
import { linkState } from "../../src/tui/live_figures.ts";
import { linkLine } from "../../src/tui/link_line.ts";

const NOW = Date.parse("2026-11-27T00:00:00.000Z");

function status(relayApps: number | null): TelemetryStatus {
  return {
    connected: true,
    console: "192.168.1.30:33739",
    format: "C",
    listen: "0.0.0.0:33740",
    packets_received: 600,
    decoded: 600,
    rejected_size: 0,
    rejected_magic: 0,
    rejected: 0,
    duplicates: 0,
    missing: 0,
    packet_format: "C",
    packets_per_second: 60,
    heartbeats_sent: 7,
    last_packet_at: new Date(NOW - 10).toISOString(),
    relay: relayApps === null ? null : {
      listen: "0.0.0.0:20777",
      requested_format: "C",
      console_format: "C",
      apps: Array.from({ length: relayApps }, (_, i) => ({
        address: `127.0.0.1:${5000 + i}`,
        kind: "heartbeat" as const,
        format: "A" as const,
        packets_sent: 600,
        packets_short: 0,
        last_heartbeat_at: new Date(NOW - 500).toISOString(),
      })),
      refused_not_local: 0,
      refused_full: 0,
      refused_not_a_format: 0,
      expired: 0,
      send_errors: 0,
    },
  };
}

Deno.test("the link line counts the relayed apps, and says nothing of a relay without one", () => {
  assert.equal(
    linkLine(linkState(status(2), null, NOW), 200),
    "connected  console 192.168.1.30:33739  format C  60 pkt/s  drops 0  relay 2 apps",
  );
  assert.equal(
    linkLine(linkState(status(1), null, NOW), 200),
    "connected  console 192.168.1.30:33739  format C  60 pkt/s  drops 0  relay 1 app",
  );
  assert.equal(
    linkLine(linkState(status(0), null, NOW), 200),
    "connected  console 192.168.1.30:33739  format C  60 pkt/s  drops 0  relay 0 apps",
  );
  assert.equal(
    linkLine(linkState(status(null), null, NOW), 200),
    "connected  console 192.168.1.30:33739  format C  60 pkt/s  drops 0",
  );
  // A narrow terminal shortens the count before it leaves it out, and keeps the drops.
  assert.equal(
    linkLine(linkState(status(2), null, NOW), 60),
    "connected  192.168.1.30:33739  fmt C  60/s  drops 0  relay 2",
  );
});
