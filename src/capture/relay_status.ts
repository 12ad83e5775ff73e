/**
 * The relay's counters from the receive worker as `GET /api/status` shows
 * them (snake case, ISO times).
 *
 * @module
 */
import type { TelemetryRelayStatus } from "../app/live/telemetry_source.ts";
import type { RelayWorkerCounters } from "./udp_worker_protocol.ts";

/** The status's `relay` object for `counters`; null when nothing is relayed. */
export function relayStatus(counters: RelayWorkerCounters | null): TelemetryRelayStatus | null {
  if (counters === null) return null;
  return {
    listen: counters.listen,
    requested_format: counters.requestedFormat,
    console_format: counters.consoleFormat,
    apps: counters.apps.map((app) => ({
      address: app.address,
      kind: app.kind,
      format: app.format,
      packets_sent: app.packetsSent,
      packets_short: app.packetsShort,
      last_heartbeat_at: app.lastHeartbeatAtMs === null
        ? null
        : new Date(app.lastHeartbeatAtMs).toISOString(),
    })),
    refused_not_local: counters.refusedNotLocal,
    refused_full: counters.refusedFull,
    refused_not_a_format: counters.refusedNotAFormat,
    expired: counters.expired,
    send_errors: counters.sendErrors,
  };
}
