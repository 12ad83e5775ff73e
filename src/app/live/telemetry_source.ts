/**
 * What the application needs to know of the telemetry transport. The UDP
 * client in src/server implements it; the application never touches sockets.
 *
 * @module
 */
import { z } from "zod";
import { PACKET_FORMATS } from "../../core/gt7/format.ts";

const count = z.int().min(0);
const packetFormat = z.enum(PACKET_FORMATS);

/**
 * What became of datagrams, counted the same way live (the UDP client) and
 * from a file (capture imports).
 */
const datagramCountsSchema = z.strictObject({
  /** Datagrams that decrypted and decoded into frames. */
  decoded: count,
  /** Datagrams dropped because their size matches no format. */
  rejected_size: count,
  /** Datagrams dropped because they failed the magic check. */
  rejected_magic: count,
  /** rejected_size + rejected_magic. */
  rejected: count,
  /** Frames the recorder dropped as repeats of the previous packet id. */
  duplicates: count,
  /** Packets missing from the stream, by packet-id gaps, as the recorder counts them. */
  missing: count,
});

/**
 * What became of datagrams, counted the same way live (the UDP client) and
 * from a file (capture imports).
 */
export type DatagramCounts = z.output<typeof datagramCountsSchema>;

/** One app the relay serves. */
const relayAppSchema = z.strictObject({
  /** `IP:port` the packets go to. */
  address: z.string(),
  /** `heartbeat`: it asked on the relay port; `forward`: a `--forward` target. */
  kind: z.enum(["heartbeat", "forward"]),
  /** The format it asked for. */
  format: packetFormat,
  /** Packets sent to it. */
  packets_sent: count,
  /** Of those, sent in a poorer format than asked because the console's packet was shorter. */
  packets_short: count,
  /** ISO time of its last heartbeat; null for a forward target. */
  last_heartbeat_at: z.string().nullable(),
});

/** The relay of the console's packets to other apps. */
const relayStatusSchema = z.strictObject({
  /** `IP:port` apps send heartbeats to (instead of the console's 33739), or null with `--forward` only. */
  listen: z.string().nullable(),
  /** The letter the console is now asked for: the richest the logger or any app needs. */
  requested_format: packetFormat,
  /** Format of the console's last packet, before it was cut for anyone; null before the first. */
  console_format: packetFormat.nullable(),
  /** Every app served now: heartbeating ones in arrival order, then `--forward` targets. */
  apps: z.array(relayAppSchema).max(8),
  /** Heartbeats from addresses neither loopback nor on this machine's subnet: never answered. */
  refused_not_local: count,
  /** Heartbeats from new apps while 8 were served. */
  refused_full: count,
  /** Datagrams on the relay port that were not one format letter. */
  refused_not_a_format: count,
  /** Apps dropped after 5 s without a heartbeat. */
  expired: count,
  /** Sends the kernel refused. */
  send_errors: count,
});

/** The raw capture being written (`--record FILE`). */
const recordStatusSchema = z.strictObject({
  /** The file being written. */
  path: z.string(),
  /** Bytes of the current file. */
  bytes: count,
  /** Times the file reached its size cap and was rotated. */
  files_rotated: count,
  /** Why recording stopped (a write failed), or null while it runs. */
  error: z.string().nullable(),
});

/**
 * Health of the telemetry stream, as shown in /api/status and the
 * dashboard: the response schema, and through `z.output` the
 * {@linkcode TelemetryStatus} type.
 */
export const telemetryStatusSchema = z.strictObject({
  /** True while packets arrived in the last two seconds. */
  connected: z.boolean(),
  /** The console's address, or null when none is configured. */
  console: z.string().nullable(),
  /** The requested packet format. */
  format: packetFormat,
  /** The local UDP address telemetry is received on. */
  listen: z.string(),
  /** Datagrams received. */
  packets_received: count,
  ...datagramCountsSchema.shape,
  /** Format of the last decoded packet, or null. */
  packet_format: packetFormat.nullable(),
  /** Decoded packets per second over the last second. */
  packets_per_second: z.number(),
  /** Heartbeats sent to the console. */
  heartbeats_sent: count,
  /** ISO time of the last decoded packet, or null. */
  last_packet_at: z.string().nullable(),
  // The fields below describe a real socket; a source without one (a test
  // double) may leave them out.
  /** Packet-id jumps taken as a new stream (backwards, or more than 10 minutes ahead). */
  restarts: count.optional(),
  /** Acknowledgements sent to a console on loopback (a replay paces itself by them); 0 otherwise. */
  acks_sent: count.optional(),
  /** The socket's receive buffer as the kernel reports it, or null where it can not be read. */
  receive_buffer_bytes: count.nullable().optional(),
  /** How the receive buffer was sized, or why the platform default stayed. */
  receive_buffer_note: z.string().optional(),
  /** Datagrams the kernel dropped for this socket (a full buffer), or null where unavailable. */
  kernel_drops: count.nullable().optional(),
  /** The `--record` file, or null when not recording. */
  record: recordStatusSchema.nullable().optional(),
  relay: relayStatusSchema.nullable().optional().meta({
    description: "the relay to other apps (--relay, --forward); null when nothing is relayed",
  }),
}).meta({ id: "TelemetryStatus" });

/** Health of the telemetry stream, as shown in /api/status and the dashboard. */
export type TelemetryStatus = z.output<typeof telemetryStatusSchema>;

/** The relay of the console's packets to other apps. */
export type TelemetryRelayStatus = z.output<typeof relayStatusSchema>;

/** One app the relay serves. */
export type TelemetryRelayApp = z.output<typeof relayAppSchema>;

/** The raw capture being written (`--record FILE`). */
export type TelemetryRecordStatus = z.output<typeof recordStatusSchema>;

/** A running telemetry transport. */
export interface TelemetrySource {
  /** Current status; cheap to call. */
  status(): TelemetryStatus;
  /** Stops receiving and releases the socket. Idempotent. */
  close(): Promise<void>;
}
