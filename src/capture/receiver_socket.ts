/**
 * The receive worker's socket: bound, its kernel buffer sized, and read in
 * a loop. Deno's receive waits for the next datagram; what queued up behind
 * it is then drained by plain recv(2) calls where FFI allows, much cheaper
 * each (socket_buffer.ts).
 *
 * @module
 */
import {
  enlargeReceiveBuffer,
  locateUdpSocket,
  openDrain,
  type ReceiveBuffer,
  type SocketLocation,
} from "./socket_buffer.ts";

/** Datagrams drained in one go before the worker looks at its messages and timers again. */
export const MAX_DRAIN = 1024;
/** Larger than any UDP payload (65,507 bytes), so no datagram is cut short. */
const RECEIVE_BUFFER = 65_536;

/** The socket found in /proc, and what became of its receive buffer. */
export interface SizedSocket {
  /** Where /proc shows it, or null when it can not be found. */
  readonly location: SocketLocation | null;
  readonly buffer: ReceiveBuffer;
}

/**
 * Finds the socket bound at `local` and asks for a receive buffer of
 * `bytes` (0: leaves the platform's default).
 */
export function sizeSocket(local: Deno.NetAddr, bytes: number): SizedSocket {
  const location = locateUdpSocket(local.hostname, local.port);
  const buffer = bytes > 0
    ? enlargeReceiveBuffer(location, bytes)
    : { bytes: null, note: "platform default (not asked to change it)" };
  return { location, buffer };
}

/** What the receive loop tells its owner. */
export interface ReceiveHandlers {
  /** A datagram, in a buffer reused for the next one. */
  datagram(data: Uint8Array): void;
  /** A burst is read: `empty` when the socket has nothing more queued. */
  drained(empty: boolean): void;
  /** True once the socket is being closed. */
  closing(): boolean;
  /** Told of a receive error (the loop goes on). */
  notice(line: string): void;
}

/** Reads `conn` (at `location`) until it is closed; resolves then. */
export async function receiveLoop(
  conn: Deno.DatagramConn,
  location: SocketLocation | null,
  on: ReceiveHandlers,
): Promise<void> {
  const buf = new Uint8Array(RECEIVE_BUFFER);
  const drain = openDrain(location, buf);
  while (!on.closing()) {
    let data: Uint8Array;
    try {
      [data] = await conn.receive(buf);
    } catch (err) {
      if (on.closing()) break;
      on.notice(`telemetry socket error: ${(err as Error).message}`);
      continue;
    }
    on.datagram(data);
    let empty = false;
    for (let i = 0; drain !== null && i < MAX_DRAIN && !on.closing(); i++) {
      const length = drain.next();
      if (length < 0) {
        empty = true;
        break;
      }
      on.datagram(buf.subarray(0, length));
    }
    on.drained(empty);
  }
  drain?.close();
}
