/**
 * The few libc calls Deno does not offer (socket options, a non-blocking
 * recv, and malloc_trim for the memory tidy), through FFI; the socket calls
 * act on a descriptor found in /proc. One binding for every module that
 * sizes or drains a socket or trims the C heap.
 *
 * @module
 */

/** `SOL_SOCKET`, the level of the generic socket options. */
export const SOL_SOCKET = 1;

const SYMBOLS = {
  setsockopt: { parameters: ["i32", "i32", "i32", "buffer", "u32"], result: "i32" },
  getsockopt: { parameters: ["i32", "i32", "i32", "buffer", "buffer"], result: "i32" },
  recv: { parameters: ["i32", "buffer", "usize", "i32"], result: "isize" },
  shutdown: { parameters: ["i32", "i32"], result: "i32" },
  getsockname: { parameters: ["i32", "buffer", "buffer"], result: "i32" },
  getpeername: { parameters: ["i32", "buffer", "buffer"], result: "i32" },
  sendto: { parameters: ["i32", "buffer", "usize", "i32", "buffer", "u32"], result: "isize" },
  malloc_trim: { parameters: ["usize"], result: "i32" },
} as const;

/** `MSG_DONTWAIT`: a recv/sendto flag making that one call non-blocking (Linux value). */
export const MSG_DONTWAIT = 0x40;

/** `AF_INET`, the IPv4 address family (sa_family of a sockaddr_in). */
export const AF_INET = 2;

/** `AF_INET6`, the IPv6 address family (Linux value); only the port reading below needs it. */
const AF_INET6 = 10;

/** `SHUT_RDWR`: shutdown() both ways. */
const SHUT_RDWR = 2;

/** libc opened with the socket calls (and malloc_trim); close it when done. */
export type SocketLibc = Deno.DynamicLibrary<typeof SYMBOLS>;

/** libc with the socket calls, or null where it can not be opened (not glibc, no FFI). */
export function openSocketLibc(): SocketLibc | null {
  try {
    return Deno.dlopen("libc.so.6", SYMBOLS);
  } catch {
    return null;
  }
}

/** getsockopt of the int option `name` at `level` on `fd`, or null when the call fails. */
export function getIntOption(
  libc: SocketLibc,
  fd: number,
  level: number,
  name: number,
): number | null {
  const value = new Int32Array(1);
  const length = new Uint32Array([4]);
  return libc.symbols.getsockopt(fd, level, name, value, length) === 0 ? value[0] : null;
}

/** setsockopt of the int option `name` at `level` on `fd` to `value`; true when the call succeeded. */
export function setIntOption(
  libc: SocketLibc,
  fd: number,
  level: number,
  name: number,
  value: number,
): boolean {
  return libc.symbols.setsockopt(fd, level, name, new Int32Array([value]), 4) === 0;
}

/**
 * shutdown(SHUT_RDWR) of the socket `fd`: its owner (Deno's HTTP server)
 * then reads the end of the stream and closes it itself, so the descriptor
 * is never closed behind its back. True when the call succeeded.
 */
export function shutdownSocket(libc: SocketLibc, fd: number): boolean {
  return libc.symbols.shutdown(fd, SHUT_RDWR) === 0;
}

const SO_TYPE = 3;
const SOCK_STREAM = 1;

/** `AF_INET` and `AF_INET6`: the families whose address holds a port at bytes 2-3. */
const INET_FAMILIES = new Set([AF_INET, AF_INET6]);

/** Room for any socket address (sockaddr_storage is 128 bytes). */
const ADDRESS_BYTES = 128;

/** The port of the IPv4/IPv6 address `call` writes for `fd`, or null (not such a socket). */
function portOf(libc: SocketLibc, call: "getsockname" | "getpeername", fd: number): number | null {
  const address = new Uint8Array(ADDRESS_BYTES);
  const length = new Uint32Array([ADDRESS_BYTES]);
  if (libc.symbols[call](fd, address, length) !== 0) return null;
  // sa_family in host order (little-endian here), then the port in network order.
  if (!INET_FAMILIES.has(address[0] | (address[1] << 8))) return null;
  return (address[2] << 8) | address[3];
}

/**
 * The local and remote ports of `fd` when it is a connected IPv4/IPv6
 * stream socket (a TCP connection), else null: a listener, a UDP socket, a
 * file, or a closed descriptor.
 */
export function connectionPorts(
  libc: SocketLibc,
  fd: number,
): { local: number; remote: number } | null {
  if (getIntOption(libc, fd, SOL_SOCKET, SO_TYPE) !== SOCK_STREAM) return null;
  const local = portOf(libc, "getsockname", fd);
  if (local === null) return null;
  const remote = portOf(libc, "getpeername", fd);
  return remote === null ? null : { local, remote };
}
