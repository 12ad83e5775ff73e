/**
 * The relay's socket, inside the receive worker: it listens on `--relay PORT`
 * for apps' heartbeats as a console listens on 33739, and sends each console
 * packet on to the apps the {@linkcode RelayHub} serves, from that port (or,
 * with `--forward` only, from a port of its own). Sends go out by sendto(2)
 * through FFI where Linux allows, one synchronous call a datagram (a Deno
 * send op costs ~20 µs here, too much times eight apps at 60 Hz); Deno's send
 * elsewhere.
 *
 * @module
 */
import { ipv4Value, lanNets, type LocalNet } from "../core/relay_address.ts";
import { isLoopback } from "../core/loopback.ts";
import { AF_INET, MSG_DONTWAIT, openSocketLibc } from "./libc_sockets.ts";
import { RelayHub, type RelayPeer, type RelaySender, type RelayTarget } from "./relay_hub.ts";
import { locateUdpSocket } from "./socket_buffer.ts";

/** What the worker is told to relay (plain data: it crosses from the main thread). */
export interface RelayOptions {
  /** Address to bind the relay port on (the telemetry socket's). */
  readonly hostname: string;
  /** The heartbeat port (`--relay`); null with `--forward` targets only. */
  readonly port: number | null;
  /** `--forward` targets. */
  readonly forwards: readonly RelayTarget[];
}

/** A running relay. */
export interface RelaySocket {
  readonly hub: RelayHub;
  /** `IP:port` heartbeats are taken on, or null with forwards only. */
  readonly listen: string | null;
  /** True when sends go by sendto(2) (the status's note of the cheap path). */
  readonly fastSend: boolean;
  /** Stops listening; resolves once the receive loop ended. */
  close(): Promise<void>;
}

/** The machine's LAN subnets, or none where the interface list can not be read. */
export function machineNets(): LocalNet[] {
  try {
    return lanNets(Deno.networkInterfaces());
  } catch {
    return [];
  }
}

/**
 * Binds the relay and starts taking heartbeats; `onApps` runs after each
 * heartbeat that was answered (the worker then re-asks the console for the
 * richest format wanted). `self` is the logger's own telemetry port, whose
 * heartbeats are never answered (see RelayHubOptions.selfPort). Throws
 * `Deno.errors.AddrInUse` (naming the port and `--relay`) when the port is
 * taken.
 */
export function openRelay(
  opts: RelayOptions,
  onApps: () => void,
  nets: readonly LocalNet[] = machineNets(),
  self: { port: number; onSelf: () => void } | null = null,
): RelaySocket {
  let conn: Deno.DatagramConn;
  try {
    conn = Deno.listenDatagram({ hostname: opts.hostname, port: opts.port ?? 0, transport: "udp" });
  } catch (err) {
    if (err instanceof Deno.errors.AddrInUse) {
      throw new Deno.errors.AddrInUse(
        `relay port ${opts.port} is already in use; choose another with --relay`,
      );
    }
    throw err;
  }
  const local = conn.addr as Deno.NetAddr;
  const fast = fastSender(local);
  const send: RelaySender = fast?.send ??
    ((bytes, peer) =>
      conn.send(bytes, { transport: "udp", hostname: peer.hostname, port: peer.port }).then(
        () => true,
        () => false,
      ));
  const hub = new RelayHub({
    nets,
    forwards: opts.forwards,
    send,
    selfPort: self?.port,
    onSelf: self?.onSelf,
  });
  let closing = false;
  const loop = (async () => {
    // Heartbeats are one byte; a larger buffer only lets a bad datagram be counted as such.
    const buf = new Uint8Array(64);
    while (!closing) {
      try {
        const [data, from] = await conn.receive(buf);
        if (hub.heartbeat(data, from as Deno.NetAddr)) onApps();
      } catch {
        if (closing) break;
        // A send to a closed port shows here on some platforms; the next receive goes on,
        // a moment later so that an error that repeats can not spin the worker.
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  })();
  return {
    hub,
    listen: opts.port === null ? null : `${local.hostname}:${local.port}`,
    fastSend: fast !== null,
    async close() {
      if (closing) return;
      closing = true;
      fast?.close();
      try {
        conn.close();
      } catch {
        // Already closed.
      }
      await loop;
    },
  };
}

/** sendto(2) on the relay's own descriptor, or null where FFI or /proc can not give it. */
function fastSender(local: Deno.NetAddr): { send: RelaySender; close(): void } | null {
  if (Deno.build.os !== "linux") return null;
  try {
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return null;
  } catch {
    return null;
  }
  const socket = locateUdpSocket(local.hostname, local.port);
  if (socket === null) return null;
  const libc = openSocketLibc();
  if (libc === null) return null;
  const { fd } = socket;
  // Never a call into libc once it is closed (a packet relayed while the worker stops).
  let closed = false;
  return {
    send(bytes: Uint8Array, peer: RelayPeer): boolean {
      const addr = (peer.scratch ??= sockaddrOf(peer)) as Uint8Array | null;
      if (addr === null || closed) return false;
      return libc.symbols.sendto(fd, bytes, BigInt(bytes.length), MSG_DONTWAIT, addr, 16) >= 0;
    },
    close() {
      closed = true;
      libc.close();
    },
  };
}

/** A sockaddr_in for the peer (loopback names as 127.0.0.1); null for a non-IPv4 address. */
function sockaddrOf(peer: RelayPeer): Uint8Array | null {
  const ip = ipv4Value(peer.hostname) ?? (isLoopback(peer.hostname) ? 0x7f000001 : null);
  if (ip === null) return null;
  const addr = new Uint8Array(16);
  const view = new DataView(addr.buffer);
  view.setUint16(0, AF_INET, true);
  view.setUint16(2, peer.port, false);
  view.setUint32(4, ip, false);
  return addr;
}
