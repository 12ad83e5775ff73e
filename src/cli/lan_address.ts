/**
 * Where a phone on the same network finds the live page when the logger
 * binds every interface (`--lan`): this machine's IPv4 addresses that are
 * neither loopback nor link-local, in the order the system lists them.
 *
 * @module
 */

/** One interface address as Deno.networkInterfaces() gives it (the fields read here). */
export interface InterfaceAddress {
  family: string;
  address: string;
}

/**
 * The LAN addresses among `interfaces` (by default this machine's): IPv4,
 * not 127.0.0.0/8, not 169.254.0.0/16, each once.
 */
export function lanAddresses(
  interfaces: readonly InterfaceAddress[] = Deno.networkInterfaces(),
): string[] {
  const out: string[] = [];
  for (const i of interfaces) {
    if (i.family !== "IPv4") continue;
    if (i.address.startsWith("127.") || i.address.startsWith("169.254.")) continue;
    if (!out.includes(i.address)) out.push(i.address);
  }
  return out;
}

/** The live page's URL at `address` and `port`. */
export function pageUrl(address: string, port: number): string {
  return `http://${address.includes(":") ? `[${address}]` : address}:${port}/`;
}
