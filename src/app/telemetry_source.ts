/**
 * What the application needs to know of the telemetry transport. The UDP
 * client in src/server implements it; the application never touches sockets.
 *
 * @module
 */
import type { PacketFormat } from "../core/gt7/format.ts";

/**
 * What became of datagrams, counted the same way live (the UDP client) and
 * from a file (capture imports).
 */
export interface DatagramCounts {
  /** Datagrams that decrypted and decoded into frames. */
  decoded: number;
  /** Datagrams dropped because their size matches no format. */
  rejected_size: number;
  /** Datagrams dropped because they failed the magic check. */
  rejected_magic: number;
  /** rejected_size + rejected_magic. */
  rejected: number;
  /** Frames the recorder dropped as repeats of the previous packet id. */
  duplicates: number;
  /** Packets missing from the stream, by packet-id gaps, as the recorder counts them. */
  missing: number;
}

/** Health of the telemetry stream, as shown in /api/status and the dashboard. */
export interface TelemetryStatus extends DatagramCounts {
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
  /** Format of the last decoded packet, or null. */
  packet_format: PacketFormat | null;
  /** Decoded packets per second over the last second. */
  packets_per_second: number;
  /** Heartbeats sent to the console. */
  heartbeats_sent: number;
  /** ISO time of the last decoded packet, or null. */
  last_packet_at: string | null;
  // The fields below describe a real socket; a source without one (a test
  // double) may leave them out.
  /** Packet-id jumps taken as a new stream (backwards, or more than 10 minutes ahead). */
  restarts?: number;
  /** Acknowledgements sent to a console on loopback (a replay paces itself by them); 0 otherwise. */
  acks_sent?: number;
  /** The socket's receive buffer as the kernel reports it, or null where it can not be read. */
  receive_buffer_bytes?: number | null;
  /** How the receive buffer was sized, or why the platform default stayed. */
  receive_buffer_note?: string;
  /** Datagrams the kernel dropped for this socket (a full buffer), or null where unavailable. */
  kernel_drops?: number | null;
  /** The `--record` file, or null when not recording. */
  record?: TelemetryRecordStatus | null;
  /** The relay to other apps (`--relay`, `--forward`), or null when nothing is relayed. */
  relay?: TelemetryRelayStatus | null;
}

/** The relay of the console's packets to other apps. */
export interface TelemetryRelayStatus {
  /** `IP:port` apps send heartbeats to (instead of the console's 33739), or null with `--forward` only. */
  listen: string | null;
  /** The letter the console is now asked for: the richest the logger or any app needs. */
  requested_format: PacketFormat;
  /** Format of the console's last packet, before it was cut for anyone; null before the first. */
  console_format: PacketFormat | null;
  /** Every app served now: heartbeating ones in arrival order, then `--forward` targets. */
  apps: TelemetryRelayApp[];
  /** Heartbeats from addresses neither loopback nor on this machine's subnet: never answered. */
  refused_not_local: number;
  /** Heartbeats from new apps while 8 were served. */
  refused_full: number;
  /** Datagrams on the relay port that were not one format letter. */
  refused_not_a_format: number;
  /** Apps dropped after 5 s without a heartbeat. */
  expired: number;
  /** Sends the kernel refused. */
  send_errors: number;
}

/** One app the relay serves. */
export interface TelemetryRelayApp {
  /** `IP:port` the packets go to. */
  address: string;
  /** `heartbeat`: it asked on the relay port; `forward`: a `--forward` target. */
  kind: "heartbeat" | "forward";
  /** The format it asked for. */
  format: PacketFormat;
  /** Packets sent to it. */
  packets_sent: number;
  /** Of those, sent in a poorer format than asked because the console's packet was shorter. */
  packets_short: number;
  /** ISO time of its last heartbeat; null for a forward target. */
  last_heartbeat_at: string | null;
}

/** The raw capture being written (`--record FILE`). */
export interface TelemetryRecordStatus {
  /** The file being written. */
  path: string;
  /** Bytes of the current file. */
  bytes: number;
  /** Times the file reached its size cap and was rotated. */
  files_rotated: number;
  /** Why recording stopped (a write failed), or null while it runs. */
  error: string | null;
}

/** A running telemetry transport. */
export interface TelemetrySource {
  /** Current status; cheap to call. */
  status(): TelemetryStatus;
  /** Stops receiving and releases the socket. Idempotent. */
  close(): Promise<void>;
}
