/**
 * The kernel side of the telemetry socket on Linux: enlarging its receive
 * buffer, draining what is queued on it cheaply, and reading how many
 * datagrams the kernel dropped for it. Deno
 * exposes no SO_RCVBUF (and `node:dgram`'s `recvBufferSize` is ignored), so
 * the socket's descriptor is found through /proc (proc_sockets.ts) and set
 * through libc by FFI.
 * Everywhere this can not work (another OS, no FFI or /proc permission) it
 * falls back to the platform default and says so; nothing here throws.
 *
 * @module
 */
import {
  getIntOption,
  MSG_DONTWAIT,
  openSocketLibc,
  setIntOption,
  type SocketLibc,
  SOL_SOCKET,
} from "./libc_sockets.ts";
import { fdOfSocket, procHexAddress, readSocketRows, UDP_TABLES } from "./proc_sockets.ts";

/** Receive buffer asked for: seconds of any plausible stream (8 MiB is ~27,000 packets). */
export const WANTED_RECEIVE_BUFFER_BYTES = 8 * 2 ** 20;

const SO_RCVBUF = 8;
const SO_RCVBUFFORCE = 33;

/** Where a bound UDP socket of this process shows in /proc. */
export interface SocketLocation {
  /** The file descriptor in this process. */
  readonly fd: number;
  /** The socket's inode, as /proc/net/udp and /proc/self/fd name it. */
  readonly inode: string;
  /** The /proc table that lists it (/proc/net/udp or /proc/net/udp6). */
  readonly table: string;
}

/** What became of the request for a larger receive buffer. */
export interface ReceiveBuffer {
  /** The size the kernel reports (getsockopt SO_RCVBUF; Linux doubles what was set), or null when unknown. */
  readonly bytes: number | null;
  /** How the size came about, for the status: which option took effect, or why the default stayed. */
  readonly note: string;
}

/**
 * Finds the socket bound to `hostname:port` among this process's descriptors,
 * or null when it can not be found (not Linux, or /proc unreadable: Deno
 * opens it only with --allow-all).
 */
export function locateUdpSocket(hostname: string, port: number): SocketLocation | null {
  const hexAddress = procHexAddress(hostname);
  const tables = new Map<string, string>();
  for (const { table, row } of readSocketRows(UDP_TABLES) ?? []) {
    if (row.localPort !== port) continue;
    if (table === UDP_TABLES[0] && hexAddress !== null && row.localHex !== hexAddress) continue;
    tables.set(row.inode, table);
  }
  const found = fdOfSocket(new Set(tables.keys()));
  return found && { fd: found.fd, inode: found.inode, table: tables.get(found.inode)! };
}

function readReceiveBuffer(libc: SocketLibc, fd: number): number | null {
  return getIntOption(libc, fd, SOL_SOCKET, SO_RCVBUF);
}

/**
 * Asks the kernel for a receive buffer of `bytes` on `socket` (as
 * {@linkcode locateUdpSocket} found it; null when it was not): SO_RCVBUFFORCE
 * first (needs CAP_NET_ADMIN, ignores rmem_max), then SO_RCVBUF (clamped to
 * /proc/sys/net/core/rmem_max). Returns the size the kernel then reports, and
 * a note saying which option took effect or why the default stayed.
 */
export function enlargeReceiveBuffer(socket: SocketLocation | null, bytes: number): ReceiveBuffer {
  if (Deno.build.os !== "linux") {
    return { bytes: null, note: `platform default (no way to size it on ${Deno.build.os})` };
  }
  if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") {
    return { bytes: null, note: "platform default (no FFI permission)" };
  }
  if (socket === null) {
    return {
      bytes: null,
      note: "platform default (socket not found in /proc, which Deno reads only with --allow-all)",
    };
  }
  const libc = openSocketLibc();
  if (libc === null) {
    return { bytes: null, note: "platform default (no libc.so.6 to set it through)" };
  }
  try {
    const before = readReceiveBuffer(libc, socket.fd);
    for (
      const [option, name] of [[SO_RCVBUFFORCE, "SO_RCVBUFFORCE"], [
        SO_RCVBUF,
        "SO_RCVBUF",
      ]] as const
    ) {
      if (!setIntOption(libc, socket.fd, SOL_SOCKET, option, bytes)) continue;
      const after = readReceiveBuffer(libc, socket.fd);
      // Linux reports twice the size set (room for its bookkeeping).
      const clamped = after !== null && after < 2 * bytes ? " (clamped by net.core.rmem_max)" : "";
      return { bytes: after, note: `${bytes} bytes asked with ${name}${clamped}` };
    }
    return { bytes: before, note: "platform default (setsockopt refused)" };
  } finally {
    libc.close();
  }
}

/** Reads queued datagrams without waiting (see {@linkcode openDrain}). */
export interface Drain {
  /** Bytes of the next queued datagram, copied into the drain's buffer, or -1 when none is queued. */
  next(): number;
  /** Releases libc. */
  close(): void;
}

/**
 * A reader of what is already queued on `socket` into `into`, by recv(2)
 * with MSG_DONTWAIT on its descriptor: one FFI call a datagram instead of
 * one asynchronous receive each, which is most of the receive cost at high
 * rates. Null where it can not work (not Linux, no FFI). The socket stays
 * Deno's: a reader only ever drains after Deno's own receive returned, so
 * datagrams stay in arrival order, and Deno's next receive simply waits.
 */
export function openDrain(socket: SocketLocation | null, into: Uint8Array): Drain | null {
  if (Deno.build.os !== "linux" || socket === null) return null;
  const libc = openSocketLibc();
  if (libc === null) return null;
  const { fd } = socket;
  const length = BigInt(into.length);
  return {
    next: () => Number(libc.symbols.recv(fd, into, length, MSG_DONTWAIT)),
    close: () => libc.close(),
  };
}

/**
 * Datagrams the kernel dropped for the socket `location` names (the `drops`
 * column of its /proc table, counted since the socket was opened), or null
 * when the table can not be read or no longer lists it.
 */
export function readKernelDrops(location: SocketLocation): number | null {
  const rows = readSocketRows([location.table]) ?? [];
  return rows.find((r) => r.row.inode === location.inode)?.row.drops ?? null;
}
