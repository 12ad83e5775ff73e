/**
 * The relay's bookkeeping: which apps heartbeat it (and in which format), the
 * fixed `--forward` targets, and, for each console packet, the datagram each
 * of them gets. It acts towards the apps as a console does: an app is served
 * from its first heartbeat until {@linkcode RELAY_TIMEOUT_MS} after its last.
 * Sockets are not its business: it is handed heartbeats and packets, and
 * sends through the function it was given, so the rules can be tested
 * without a network. Used inside the receive worker (relay_socket.ts).
 *
 * @module
 */
import {
  heartbeatFormat,
  isAckDatagram,
  relayDatagram,
  relayedFormat,
  richestFormat,
} from "../core/gt7/relay_packet.ts";
import { formatOfSize, PACKET_FORMATS, type PacketFormat } from "../core/gt7/format.ts";
import { type LocalNet, relayPeerAllowed } from "../core/relay_address.ts";
import { isLoopback } from "../core/loopback.ts";

/**
 * Silence after which a heartbeating app stops receiving: the console's
 * timeout as the fake console keeps it (src/cli/fake_console.ts counts a
 * logger gone after 5 s without a heartbeat).
 */
export const RELAY_TIMEOUT_MS = 5000;

/** Most apps served at once, heartbeating ones and `--forward` targets together. */
export const MAX_RELAY_APPS = 8;

/** Where one relayed app receives. */
export interface RelayTarget {
  /** IPv4 address (or a loopback name). */
  readonly hostname: string;
  readonly port: number;
  readonly format: PacketFormat;
}

/** One served app as the status shows it (plain data: it crosses from the worker). */
export interface RelayAppCounters {
  /** `IP:port` the packets go to. */
  readonly address: string;
  /** `heartbeat`: it asked (and must go on asking); `forward`: a `--forward` target. */
  readonly kind: "heartbeat" | "forward";
  /** The format it asked for. */
  readonly format: PacketFormat;
  /** Datagrams handed to the kernel for it. */
  readonly packetsSent: number;
  /** Of those, sent in a poorer format than asked because the console's packet was shorter. */
  readonly packetsShort: number;
  /** Unix ms of its last heartbeat; null for a forward target. */
  readonly lastHeartbeatAtMs: number | null;
}

/** The relay's state for the status. */
export interface RelayCounters {
  /** Apps served now, heartbeating ones first (in arrival order), then forward targets. */
  readonly apps: RelayAppCounters[];
  /** Heartbeats from addresses neither loopback nor on the LAN: not answered. */
  readonly refusedNotLocal: number;
  /** Heartbeats from new apps while {@linkcode MAX_RELAY_APPS} were served. */
  readonly refusedFull: number;
  /** Datagrams from local apps that were not one format letter. */
  readonly refusedNotAFormat: number;
  /** Apps dropped after {@linkcode RELAY_TIMEOUT_MS} without a heartbeat. */
  readonly expired: number;
  /** Sends the kernel refused (a full send buffer, an unreachable port). */
  readonly sendErrors: number;
}

/**
 * Sends `bytes` to `target`: true when sent, false when refused, or a promise
 * of either. `bytes` is never changed afterwards, so it may be sent later.
 */
export type RelaySender = (bytes: Uint8Array, target: RelayPeer) => boolean | Promise<boolean>;

/** A served app; `scratch` is the sender's to keep per-target data in (a sockaddr). */
export interface RelayPeer extends RelayTarget {
  /** Changes when the app heartbeats another letter. */
  format: PacketFormat;
  readonly kind: "heartbeat" | "forward";
  sent: number;
  short: number;
  lastHeartbeatAtMs: number | null;
  /** performance.now() of the last heartbeat. */
  lastHeardAt: number;
  scratch: unknown;
}

/** Options of {@linkcode RelayHub}. */
export interface RelayHubOptions {
  /** The machine's LAN subnets (loopback is always allowed). */
  nets: readonly LocalNet[];
  /** Fixed targets, served with no heartbeat. */
  forwards: readonly RelayTarget[];
  send: RelaySender;
  /** Monotonic clock, ms; default performance.now. */
  monotonic?: () => number;
  /** Wall clock, Unix ms; default Date.now. */
  wallClock?: () => number;
  /**
   * The logger's own telemetry port: a heartbeat from it on this machine is
   * the logger heartbeating its own relay (`--console-port` set to the relay
   * port), and relaying to it would feed every packet back in. Ignored, and
   * `onSelf` told.
   */
  selfPort?: number;
  onSelf?: () => void;
}

/** Keeps the relay's apps and sends each console packet on to them. */
export class RelayHub {
  readonly #opts: RelayHubOptions;
  readonly #apps = new Map<string, RelayPeer>();
  readonly #forwards: RelayPeer[];
  readonly #monotonic: () => number;
  readonly #wallClock: () => number;
  // One datagram per format a packet is relayed in, built once and shared by every app of it.
  readonly #datagrams: Partial<Record<PacketFormat, Uint8Array>> = {};
  #refusedNotLocal = 0;
  #refusedFull = 0;
  #refusedNotAFormat = 0;
  #expired = 0;
  #sendErrors = 0;

  /** Throws RangeError when there are more forward targets than {@linkcode MAX_RELAY_APPS}. */
  constructor(opts: RelayHubOptions) {
    if (opts.forwards.length > MAX_RELAY_APPS) {
      throw new RangeError(
        `at most ${MAX_RELAY_APPS} relay targets, got ${opts.forwards.length} --forward`,
      );
    }
    this.#opts = opts;
    this.#monotonic = opts.monotonic ?? (() => performance.now());
    this.#wallClock = opts.wallClock ?? Date.now;
    this.#forwards = opts.forwards.map((t) => ({
      hostname: t.hostname,
      port: t.port,
      format: t.format,
      kind: "forward",
      sent: 0,
      short: 0,
      lastHeartbeatAtMs: null,
      lastHeardAt: 0,
      scratch: undefined,
    }));
  }

  /**
   * Takes a datagram that arrived on the relay port from `from`. A format
   * letter from a local address starts (or renews, or changes the format of)
   * that app's stream, while room remains; anything from elsewhere is
   * counted and ignored, and so is anything local that is not a letter (an
   * `ack` from another logger of this project aside, ignored uncounted).
   * Returns true when the app is served.
   */
  heartbeat(data: Uint8Array, from: { hostname: string; port: number }): boolean {
    if (!relayPeerAllowed(from.hostname, this.#opts.nets)) {
      this.#refusedNotLocal++;
      return false;
    }
    if (from.port === this.#opts.selfPort && this.#isThisMachine(from.hostname)) {
      this.#opts.onSelf?.();
      return false;
    }
    const format = heartbeatFormat(data);
    if (format === null) {
      if (!isAckDatagram(data)) this.#refusedNotAFormat++;
      return false;
    }
    const key = `${from.hostname}:${from.port}`;
    this.sweep();
    let app = this.#apps.get(key);
    if (app === undefined) {
      if (this.#apps.size + this.#forwards.length >= MAX_RELAY_APPS) {
        this.#refusedFull++;
        return false;
      }
      app = {
        hostname: from.hostname,
        port: from.port,
        format,
        kind: "heartbeat",
        sent: 0,
        short: 0,
        lastHeartbeatAtMs: null,
        lastHeardAt: 0,
        scratch: undefined,
      };
      this.#apps.set(key, app);
    }
    app.format = format;
    app.lastHeardAt = this.#monotonic();
    app.lastHeartbeatAtMs = this.#wallClock();
    return true;
  }

  /** Drops the apps silent for longer than {@linkcode RELAY_TIMEOUT_MS}; true when any went. */
  sweep(): boolean {
    const now = this.#monotonic();
    let dropped = false;
    for (const [key, app] of this.#apps) {
      if (now - app.lastHeardAt > RELAY_TIMEOUT_MS) {
        this.#apps.delete(key);
        this.#expired++;
        dropped = true;
      }
    }
    return dropped;
  }

  /** The richest format any served app asked for, or null when none is served. */
  wanted(): PacketFormat | null {
    return richestFormat(this.#targets().map((t) => t.format));
  }

  /** Number of apps served now. */
  get size(): number {
    return this.#apps.size + this.#forwards.length;
  }

  /**
   * Sends one console packet on to every app served: `cipher` as it arrived,
   * `plain` its decryption. Each gets it cut to its format and encrypted with
   * that format's key (see relay_packet.ts). Apps silent too long are dropped
   * first. Never throws for a send; a refused one is counted.
   */
  relay(cipher: Uint8Array, plain: Uint8Array): void {
    if (this.#apps.size > 0) this.sweep();
    if (this.size === 0) return;
    const consoleFormat = formatOfSize(cipher.length);
    if (consoleFormat === null) return;
    const datagrams = this.#datagrams;
    for (const f of PACKET_FORMATS) datagrams[f] = undefined;
    for (const app of this.#apps.values()) this.#send(app, consoleFormat, cipher, plain);
    for (const app of this.#forwards) this.#send(app, consoleFormat, cipher, plain);
  }

  #send(app: RelayPeer, consoleFormat: PacketFormat, cipher: Uint8Array, plain: Uint8Array) {
    const format = relayedFormat(consoleFormat, app.format);
    const bytes = this.#datagrams[format] ??= relayDatagram(cipher, plain, format);
    if (format !== app.format) app.short++;
    let result: boolean | Promise<boolean>;
    try {
      result = this.#opts.send(bytes, app);
    } catch {
      result = false;
    }
    if (result === true) app.sent++;
    else if (result === false) this.#sendErrors++;
    else result.then((ok) => ok ? app.sent++ : this.#sendErrors++, () => this.#sendErrors++);
  }

  /** A snapshot for the status. */
  counters(): RelayCounters {
    return {
      apps: this.#targets().map((app) => ({
        address: `${app.hostname}:${app.port}`,
        kind: app.kind,
        format: app.format,
        packetsSent: app.sent,
        packetsShort: app.short,
        lastHeartbeatAtMs: app.lastHeartbeatAtMs,
      })),
      refusedNotLocal: this.#refusedNotLocal,
      refusedFull: this.#refusedFull,
      refusedNotAFormat: this.#refusedNotAFormat,
      expired: this.#expired,
      sendErrors: this.#sendErrors,
    };
  }

  #isThisMachine(host: string): boolean {
    return isLoopback(host) || this.#opts.nets.some((net) => net.address === host);
  }

  #targets(): RelayPeer[] {
    return [...this.#apps.values(), ...this.#forwards];
  }
}
