/**
 * Who the relay may send telemetry to: this machine (loopback) or a machine
 * on the same IPv4 subnet as one of its LAN addresses. Anything else would
 * turn the logger into a reflector that streams to the internet on request.
 * Pure: the caller supplies the machine's interfaces.
 *
 * @module
 */
import { isLoopback } from "./loopback.ts";

/** One IPv4 subnet the machine has an address on. */
export interface LocalNet {
  /** The machine's address on it, dotted quad. */
  readonly address: string;
  /** Prefix length, 8..32. */
  readonly prefix: number;
}

/** What an interface list entry needs to carry (Deno.NetworkInterfaceInfo fits). */
export interface InterfaceAddress {
  readonly family: string;
  readonly address: string;
  readonly cidr: string;
}

/** Shortest prefix taken as a subnet: anything wider is no LAN. */
const MIN_PREFIX = 8;

/** The 32-bit value of a dotted quad (IPv4-mapped IPv6 accepted), or null. */
export function ipv4Value(host: string): number | null {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase().replace(/^::ffff:/, "");
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (!parts) return null;
  const bytes = parts.slice(1).map(Number);
  if (bytes.some((b) => b > 255)) return null;
  return ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
}

/**
 * The machine's IPv4 subnets from its interface list: every IPv4 address
 * outside 127/8 with a prefix of 8..32 bits (loopback is allowed on its own).
 */
export function lanNets(interfaces: readonly InterfaceAddress[]): LocalNet[] {
  const nets: LocalNet[] = [];
  for (const i of interfaces) {
    if (i.family !== "IPv4" || isLoopback(i.address) || ipv4Value(i.address) === null) continue;
    const prefix = Number(i.cidr.split("/")[1]);
    if (!Number.isInteger(prefix) || prefix < MIN_PREFIX || prefix > 32) continue;
    nets.push({ address: i.address, prefix });
  }
  return nets;
}

/**
 * True when the relay may send to `host`: a loopback address, or an IPv4
 * address in one of `nets` other than the subnet's network and broadcast
 * addresses (a heartbeat never comes from those; sending there would reach
 * every machine on it). False for names, other IPv6 addresses and anything
 * else.
 */
export function relayPeerAllowed(host: string, nets: readonly LocalNet[]): boolean {
  if (isLoopback(host)) return true;
  const ip = ipv4Value(host);
  if (ip === null) return false;
  return nets.some((net) => {
    const mask = net.prefix === 32 ? 0xffffffff : (~(0xffffffff >>> net.prefix)) >>> 0;
    const base = ipv4Value(net.address)!;
    if (((ip & mask) >>> 0) !== ((base & mask) >>> 0)) return false;
    if (net.prefix >= 31) return true;
    const rest = (ip & ~mask) >>> 0;
    return rest !== 0 && rest !== (~mask >>> 0);
  });
}

/** The subnets as a reader writes them: `192.168.1.0/24, 10.0.0.0/8`, or `none`. */
export function describeNets(nets: readonly LocalNet[]): string {
  if (nets.length === 0) return "none";
  return nets.map((net) => {
    const mask = net.prefix === 32 ? 0xffffffff : (~(0xffffffff >>> net.prefix)) >>> 0;
    const base = (ipv4Value(net.address)! & mask) >>> 0;
    const quad = [24, 16, 8, 0].map((s) => (base >>> s) & 255).join(".");
    return `${quad}/${net.prefix}`;
  }).join(", ");
}
