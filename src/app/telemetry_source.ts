/**
 * What the application needs to know of the telemetry transport. The UDP
 * client in src/server implements it; the application never touches sockets.
 *
 * @module
 */
import type { PacketFormat } from "../core/gt7/format.ts";

/** Health of the telemetry stream, as shown in /api/status and the dashboard. */
export interface TelemetryStatus {
  /** True while packets arrived in the last two seconds. */
  connected: boolean;
  /** The console's address, or null when none is configured. */
  console: string | null;
  /** The requested packet format. */
  format: PacketFormat;
  /** The local UDP address telemetry is received on. */
  listen: string;
  /** Datagrams received. */
  packets_received: number;
  /** Datagrams that decrypted and decoded into frames. */
  decoded: number;
  /** Datagrams dropped because their size matches no format. */
  rejected_size: number;
  /** Datagrams dropped because they failed the magic check. */
  rejected_magic: number;
  /** rejected_size + rejected_magic. */
  rejected: number;
  /** Frames dropped as repeats of the previous packet id. */
  duplicates: number;
  /** Packets the console sent that never arrived. */
  missing: number;
  /** Format of the last decoded packet, or null. */
  packet_format: PacketFormat | null;
  /** Decoded packets per second over the last second. */
  packets_per_second: number;
  /** Heartbeats sent to the console. */
  heartbeats_sent: number;
  /** ISO time of the last decoded packet, or null. */
  last_packet_at: string | null;
}

/** A running telemetry transport. */
export interface TelemetrySource {
  /** Current status; cheap to call. */
  status(): TelemetryStatus;
  /** Stops receiving and releases the socket. Idempotent. */
  close(): Promise<void>;
}
