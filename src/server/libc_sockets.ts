/**
 * The few libc socket calls Deno does not offer (socket options, a
 * non-blocking recv), through FFI on a descriptor found in /proc. One
 * binding for every module that sizes or drains a socket.
 *
 * @module
 */

/** `SOL_SOCKET`, the level of the generic socket options. */
export const SOL_SOCKET = 1;

const SYMBOLS = {
  setsockopt: { parameters: ["i32", "i32", "i32", "buffer", "u32"], result: "i32" },
  getsockopt: { parameters: ["i32", "i32", "i32", "buffer", "buffer"], result: "i32" },
  recv: { parameters: ["i32", "buffer", "usize", "i32"], result: "isize" },
  sendto: { parameters: ["i32", "buffer", "usize", "i32", "buffer", "u32"], result: "isize" },
} as const;

/** libc opened with the socket calls; close it when done. */
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
