/**
 * A limit on idle HTTP connections. Deno.serve has none (measured on 2.9.6:
 * a connection that sends nothing, half a request's headers, or nothing more
 * after its answer stays open past 120 s, as does one whose answer went out
 * while its body was still announced), and it exposes no socket. So the
 * server's side of each connection is found among this process's
 * descriptors (/proc/self/fd, each asked its ports by getsockname and
 * getpeername through libc by FFI), and one that has had no request in
 * progress for the limit is shut down: Deno's server then reads the end of
 * the stream and closes the connection itself.
 *
 * "In progress" runs from a request's arrival at the handler to the moment
 * its answer, streamed bodies included, has been sent (`info.completed`), so
 * an event stream or a long import is never cut; bytes a client trickles
 * without completing a request do not count, so half a request's headers, or
 * a body no route reads, hold a connection no longer than an idle one. An
 * answer asking for the connection to close (a 408, whose body was not read
 * to its end) has it shut down just after it is sent (Deno's server itself
 * keeps such a connection open, waiting for the rest of the body).
 *
 * Where this can not work (not Linux, no FFI or /proc permission) idle
 * connections stay open and `note` says why; nothing here throws.
 *
 * @module
 */
import {
  connectionPorts,
  openSocketLibc,
  shutdownSocket,
  type SocketLibc,
} from "../capture/libc_sockets.ts";
import { ownDescriptors } from "../capture/proc_sockets.ts";

/** How long a connection may stay without a request in progress, by default: 30 s. */
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

/** Longest pause between two looks at the connections: an idle one closes within the limit plus this. */
export const MAX_SWEEP_MS = 1000;

/**
 * Wait after an answer that closes its connection is reported sent before
 * the connection is shut: `info.completed` settles before Deno's server has
 * written the answer (measured: shutting at once, the client got nothing).
 */
const CLOSE_GRACE_MS = 250;

/** The limit on idle connections of one server. */
export interface IdleConnections {
  /** The limit, ms. */
  readonly idleTimeoutMs: number;
  /** Why idle connections are not limited here, or null when they are. */
  readonly note: string | null;
  /** Connections shut down so far (idle, or after an answer that closes). */
  readonly closed: number;
  /**
   * Counts a request from remote port `remotePort` as in progress until the
   * function returned is called (once its answer is sent); called with
   * `close`, the connection is then shut down.
   */
  begin(remotePort: number): (close: boolean) => void;
  /** Stops looking (once; again does nothing); connections are left as they are. */
  stop(): void;
}

/** What is known of the connections from one remote port. */
interface PortState {
  /** Requests in progress. */
  inFlight: number;
  /** When the last one ended, ms (performance.now()); null before any. */
  lastEnd: number | null;
}

/** One of the server's connections: its descriptor and the client's port. */
export interface Connection {
  fd: number;
  remote: number;
}

/**
 * The server's connections on `localPort`, from this process's descriptors
 * (one look of the limit); empty where /proc/self/fd can not be read.
 */
export function connectionsOn(libc: SocketLibc, localPort: number): Connection[] {
  const found: Connection[] = [];
  // /proc unreadable meanwhile: nothing found this time.
  for (const fd of ownDescriptors() ?? []) {
    const ports = connectionPorts(libc, fd);
    if (ports !== null && ports.local === localPort) found.push({ fd, remote: ports.remote });
  }
  return found;
}

/**
 * Starts limiting the idle connections of the server listening on
 * `localPort` to `idleTimeoutMs`; looks every `min(MAX_SWEEP_MS, limit / 4)`.
 * A look costs a scan of this process's descriptors (measured: 2.4 ms with
 * 200 connections open, on this 2-core machine).
 */
export function limitIdleConnections(localPort: number, idleTimeoutMs: number): IdleConnections {
  const ports = new Map<number, PortState>();
  const unavailable = whyUnavailable();
  const libc = unavailable === null ? openSocketLibc() : null;
  const note = unavailable ??
    (libc === null ? "idle connections are not limited: libc could not be opened" : null);
  /** When each connection (descriptor and client port) was first seen. */
  const firstSeen = new Map<string, number>();
  let closed = 0;
  let stopped = false;

  const shut = (lib: SocketLibc, fd: number) => {
    if (shutdownSocket(lib, fd)) closed++;
  };

  const sweep = () => {
    if (libc === null) return;
    const now = performance.now();
    const present = new Set<string>();
    const presentPorts = new Set<number>();
    for (const { fd, remote } of connectionsOn(libc, localPort)) {
      const key = `${fd}:${remote}`;
      present.add(key);
      presentPorts.add(remote);
      const seen = firstSeen.get(key) ?? now;
      firstSeen.set(key, seen);
      const state = ports.get(remote);
      if (state && state.inFlight > 0) continue;
      if (now - Math.max(seen, state?.lastEnd ?? -Infinity) >= idleTimeoutMs) shut(libc, fd);
    }
    for (const key of firstSeen.keys()) if (!present.has(key)) firstSeen.delete(key);
    for (const [port, state] of ports) {
      if (state.inFlight === 0 && !presentPorts.has(port)) ports.delete(port);
    }
  };

  const timer = note === null
    ? setInterval(sweep, Math.max(10, Math.min(MAX_SWEEP_MS, idleTimeoutMs / 4)))
    : null;

  const shutPort = (remotePort: number) => {
    if (libc === null) return;
    for (const { fd, remote } of connectionsOn(libc, localPort)) {
      if (remote === remotePort) shut(libc, fd);
    }
  };

  return {
    idleTimeoutMs,
    note,
    get closed() {
      return closed;
    },
    begin(remotePort) {
      const state = ports.get(remotePort) ?? { inFlight: 0, lastEnd: null };
      ports.set(remotePort, state);
      state.inFlight++;
      let ended = false;
      return (close) => {
        if (ended) return;
        ended = true;
        state.inFlight--;
        state.lastEnd = performance.now();
        ports.set(remotePort, state);
        if (!close) return;
        // Deno reports the answer sent before it has written it: shut at once, it was lost.
        setTimeout(() => {
          if (!stopped && state.inFlight === 0) shutPort(remotePort);
        }, CLOSE_GRACE_MS);
      };
    },
    stop() {
      if (stopped) return;
      stopped = true;
      if (timer !== null) clearInterval(timer);
      libc?.close();
    },
  };
}

/** Why connections can not be found and shut down here, or null when they can. */
function whyUnavailable(): string | null {
  if (Deno.build.os !== "linux") return `idle connections are not limited on ${Deno.build.os}`;
  if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") {
    return "idle connections are not limited: no FFI permission";
  }
  if (Deno.permissions.querySync({ name: "read", path: "/proc/self/fd" }).state !== "granted") {
    return "idle connections are not limited: /proc/self/fd is not readable";
  }
  return null;
}
