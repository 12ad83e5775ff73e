/**
 * Finds HTTP clients that stopped reading, from the kernel's view of their
 * connections. A peer whose receive window stays shut makes Linux arm the
 * zero-window probe timer (timer 04 in /proc/net/tcp) on our side a few
 * seconds after it stops reading, long before the seconds of frames that
 * kernel and runtime buffers hold reach the live stream's own queue.
 * While at least one peer is watched, both tables are read once every
 * {@linkcode STALL_POLL_MS}; a peer probed continuously for
 * {@linkcode STALL_CONFIRM_MS} is reported once. Where /proc can not be read
 * (another OS, no permission) nothing is ever reported.
 *
 * @module
 */
import { readTcpRows, type TcpRow } from "../capture/proc_sockets.ts";

/** The timer column of /proc/net/tcp while the zero-window probe timer runs. */
export const ZERO_WINDOW_TIMER = "04";
/** How often the tables are read while a peer is watched, ms. */
export const STALL_POLL_MS = 250;
/** How long a peer must be probed without a break before it counts as stalled, ms. */
export const STALL_CONFIRM_MS = 1000;

/** One connection to watch: the server's port and the client's address. */
export interface Peer {
  /** The server's (local) port. */
  localPort: number;
  /** The client's address as Deno.serve reports it (IPv4 or IPv6). */
  hostname: string;
  /** The client's port. */
  port: number;
}

/** `hostname` in the form {@linkcode TcpRow.remoteAddress} uses. */
export function plainAddress(hostname: string): string {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (!host.includes(":")) return host;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (mapped) return mapped[1];
  const [head, tail] = host.includes("::") ? host.split("::") : [host, null];
  const front = head ? head.split(":") : [];
  const back = tail ? tail.split(":") : [];
  const zeros = tail === null ? [] : Array(8 - front.length - back.length).fill("0");
  return [...front, ...zeros, ...back].map((g) => Number.parseInt(g, 16).toString(16)).join(":");
}

/** Whether `rows` show `peer`'s connection with the zero-window probe timer running. */
export function probing(rows: readonly TcpRow[], peer: Peer): boolean {
  const address = plainAddress(peer.hostname);
  return rows.some((r) =>
    r.localPort === peer.localPort && r.remotePort === peer.port &&
    r.remoteAddress === address && r.timer === ZERO_WINDOW_TIMER
  );
}

/**
 * One look at a peer: when its probing began (`since`, null when it is not
 * probed now; a break resets it) and whether it has now been probed for
 * `confirmMs` or more.
 */
export function judgePeer(
  rows: readonly TcpRow[],
  peer: Peer,
  since: number | null,
  now: number,
  confirmMs = STALL_CONFIRM_MS,
): { since: number | null; stalled: boolean } {
  if (!probing(rows, peer)) return { since: null, stalled: false };
  const start = since ?? now;
  return { since: start, stalled: now - start >= confirmMs };
}

interface Watch {
  peer: Peer;
  since: number | null;
  onStall: () => void;
}

/** Watches peers' connections; polls only while one is watched. */
export class StalledPeers {
  readonly #watches = new Set<Watch>();
  #timer: ReturnType<typeof setInterval> | undefined;

  /**
   * Calls `onStall` once when `peer` has been probed for
   * {@linkcode STALL_CONFIRM_MS}; returns the function that stops watching.
   */
  watch(peer: Peer, onStall: () => void): () => void {
    const w: Watch = { peer, since: null, onStall };
    this.#watches.add(w);
    this.#timer ??= setInterval(() => this.#poll(), STALL_POLL_MS);
    return () => this.#forget(w);
  }

  #forget(w: Watch): void {
    this.#watches.delete(w);
    if (this.#watches.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  #poll(): void {
    const rows = readTcpRows();
    if (rows === null) return;
    const now = performance.now();
    for (const w of [...this.#watches]) {
      const { since, stalled } = judgePeer(rows, w.peer, w.since, now);
      w.since = since;
      if (stalled) {
        this.#forget(w);
        w.onStall();
      }
    }
  }
}
