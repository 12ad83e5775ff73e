/**
 * The kernel send buffer of the HTTP server's TCP sockets on Linux. Left
 * alone, Linux grows a socket's send buffer up to net.ipv4.tcp_wmem's
 * maximum (4 MiB by default) while a client reads, and a client that then
 * stops reading holds megabytes in flight (a minute and more of 60 Hz live
 * frames) before the server's own queue sees it fall behind. Setting
 * SO_SNDBUF on the listening socket fixes the size and turns that growth off;
 * every connection it accepts inherits both. Deno.serve exposes no socket
 * options, so, as in socket_buffer.ts, the descriptor is found through /proc
 * (proc_sockets.ts) and set through libc by FFI. Everywhere this can not work (another OS, no
 * FFI or /proc permission) the platform's sizing stays and a note says why;
 * nothing here throws.
 *
 * @module
 */
import { getIntOption, openSocketLibc, setIntOption, SOL_SOCKET } from "../capture/libc_sockets.ts";
import { fdOfSocket, readTcpRows, type TcpRow } from "../capture/proc_sockets.ts";

/**
 * Send buffer asked for on the listener. Linux doubles it (room for its
 * bookkeeping): 128 KiB in all, still ~1 GB/s on loopback and ~100 MB/s at
 * 1 ms of round trip, but only ~2 s of 60 Hz frames held for a stalled client.
 */
export const WANTED_SEND_BUFFER_BYTES = 64 * 1024;

const SO_SNDBUF = 7;
/** The state column of /proc/net/tcp for a listening socket. */
const TCP_LISTEN = "0A";

/** What became of the request for a small send buffer. */
export interface SendBuffer {
  /** The size the kernel reports (getsockopt SO_SNDBUF; Linux doubles what was set), or null when unknown. */
  readonly send_buffer_bytes: number | null;
  /** How the size came about, or why the platform's sizing stayed. */
  readonly note: string;
}

function tcpRows(): TcpRow[] {
  return readTcpRows() ?? [];
}

/** The descriptor of this process whose socket has one of `inodes`, or null. */
function fdOfInode(inodes: Set<string>): number | null {
  return fdOfSocket(inodes)?.fd ?? null;
}

/**
 * The descriptor of this process's TCP socket listening on `port`, or null
 * when there is none or it can not be found (not Linux, or /proc
 * unreadable: Deno opens it only with --allow-all).
 */
export function locateTcpListener(port: number): number | null {
  if (Deno.build.os !== "linux") return null;
  const inodes = new Set(
    tcpRows().filter((r) => r.state === TCP_LISTEN && r.localPort === port).map((r) => r.inode),
  );
  return fdOfInode(inodes);
}

/**
 * The descriptor of this process's connected TCP socket from local port
 * `localPort` to remote port `remotePort` (the server's side of an accepted
 * connection, or a client's own), or null when it can not be found.
 */
export function locateTcpConnection(localPort: number, remotePort: number): number | null {
  if (Deno.build.os !== "linux") return null;
  const inodes = new Set(
    tcpRows().filter((r) =>
      r.state !== TCP_LISTEN && r.localPort === localPort && r.remotePort === remotePort
    ).map((r) => r.inode),
  );
  return fdOfInode(inodes);
}

/** Why FFI can not be used here, or null when it can. */
function ffiUnavailable(): string | null {
  if (Deno.build.os !== "linux") return `no way to size it on ${Deno.build.os}`;
  if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return "no FFI permission";
  return null;
}

/**
 * The send buffer of the socket with descriptor `fd` as getsockopt(SO_SNDBUF)
 * reports it, or null where it can not be read (not Linux, no FFI, no libc,
 * or not a socket).
 */
export function readSendBuffer(fd: number): number | null {
  if (ffiUnavailable() !== null) return null;
  const libc = openSocketLibc();
  if (libc === null) return null;
  try {
    return getIntOption(libc, fd, SOL_SOCKET, SO_SNDBUF);
  } finally {
    libc.close();
  }
}

/**
 * Sets SO_SNDBUF to `bytes` on this process's TCP socket listening on
 * `port`, so every connection it accepts from then on has a send buffer of
 * that fixed size (doubled by Linux) instead of one that grows to
 * tcp_wmem's maximum. Returns the size the kernel then reports, and a note
 * saying what was done or why the platform's sizing stayed. Never throws.
 */
export function limitListenerSendBuffer(port: number, bytes: number): SendBuffer {
  const platform = (why: string): SendBuffer => ({
    send_buffer_bytes: null,
    note: `platform default (${why})`,
  });
  const unavailable = ffiUnavailable();
  if (unavailable !== null) return platform(unavailable);
  const fd = locateTcpListener(port);
  if (fd === null) {
    return platform("listening socket not found in /proc, which Deno reads only with --allow-all");
  }
  const libc = openSocketLibc();
  if (libc === null) return platform("no libc.so.6 to set it through");
  try {
    if (!setIntOption(libc, fd, SOL_SOCKET, SO_SNDBUF, bytes)) {
      return platform("setsockopt refused");
    }
    return {
      send_buffer_bytes: getIntOption(libc, fd, SOL_SOCKET, SO_SNDBUF),
      note: `${bytes} bytes asked with SO_SNDBUF on the listener (Linux doubles it; no autotuning)`,
    };
  } catch (err) {
    return platform(`setsockopt failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    libc.close();
  }
}
