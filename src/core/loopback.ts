/**
 * Whether a host names this machine's loopback interface: the one test the
 * HTTP policy, the UDP bind and the acknowledgements share, so they can not
 * disagree about what "on this machine" means.
 *
 * @module
 */

/**
 * True for `localhost`, any 127.0.0.0/8 address, `::1` (bracketed or not)
 * and IPv4-mapped loopback (`::ffff:127.x.y.z`); false for everything else,
 * `0.0.0.0` and other names included.
 */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
