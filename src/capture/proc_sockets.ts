/**
 * The one reader of the kernel's socket tables on Linux: the rows of
 * /proc/net/udp, udp6, tcp and tcp6, and this process's descriptors in
 * /proc/self/fd. Deno exposes no socket options and no descriptor, so the
 * receive buffer (socket_buffer.ts), the HTTP send buffer
 * (tcp_send_buffer.ts), stalled peers (stalled_peers.ts) and idle
 * connections (idle_connections.ts) all find their sockets here. Where
 * /proc can not be read (another OS, no permission: Deno opens it only with
 * --allow-all) every reader says so with null or an empty answer; nothing
 * here throws.
 *
 * @module
 */

/** One row of /proc/net/tcp or tcp6: its ports, remote address, state, timer and inode. */
export interface TcpRow {
  /** The local port. */
  localPort: number;
  /** The remote address: dotted IPv4 (also for IPv4-mapped IPv6), else eight lowercase hex groups. */
  remoteAddress: string;
  /** The remote port. */
  remotePort: number;
  /** The state, two hex digits ("01" established, "0A" listening). */
  state: string;
  /** The active timer, two hex digits ("00" none, "01" retransmit, "02" keepalive, "04" zero-window probe). */
  timer: string;
  /** The socket's inode, never "0" (rows without one are skipped). */
  inode: string;
}

/** One row of any /proc/net socket table: a {@linkcode TcpRow} plus what UDP tables add. */
export interface ProcSocketRow extends TcpRow {
  /** The local address as /proc prints it: hex, 32-bit words in host order. */
  localHex: string;
  /** Datagrams the kernel dropped for it (the `drops` column of the UDP tables), else null. */
  drops: number | null;
}

/** The IPv4 tables and their IPv6 twins. */
export const UDP_TABLES = ["/proc/net/udp", "/proc/net/udp6"] as const;
/** The TCP tables. */
export const TCP_TABLES = ["/proc/net/tcp", "/proc/net/tcp6"] as const;

/** An address as /proc prints it (32-bit words in host order, little-endian here) in plain form. */
function procAddress(hex: string): string {
  const bytes: number[] = [];
  for (let w = 0; w < hex.length; w += 8) {
    for (let b = 6; b >= 0; b -= 2) bytes.push(Number.parseInt(hex.slice(w + b, w + b + 2), 16));
  }
  if (bytes.length === 4) return bytes.join(".");
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255) {
    return bytes.slice(12).join(".");
  }
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return groups.join(":");
}

/** The hex form of an IPv4 address as /proc/net/udp prints it (little-endian on x86 and ARM). */
export function procHexAddress(hostname: string): string | null {
  const parts = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(hostname);
  if (!parts) return null;
  return [4, 3, 2, 1].map((i) => Number(parts[i]).toString(16).padStart(2, "0")).join("")
    .toUpperCase();
}

/**
 * The rows of the text of a /proc/net socket table (header line first),
 * skipping rows without an inode (sockets no process holds).
 */
export function parseSocketTable(text: string): ProcSocketRow[] {
  const rows: ProcSocketRow[] = [];
  for (const line of text.split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10 || fields[9] === "0") continue;
    const [localHex, localPort] = fields[1].split(":");
    const [remoteHex, remotePort] = fields[2].split(":");
    const drops = fields.length > 12 ? Number(fields[12]) : NaN;
    rows.push({
      localHex,
      localPort: Number.parseInt(localPort, 16),
      remoteAddress: procAddress(remoteHex),
      remotePort: Number.parseInt(remotePort, 16),
      state: fields[3],
      timer: fields[5].split(":")[0],
      inode: fields[9],
      drops: Number.isInteger(drops) ? drops : null,
    });
  }
  return rows;
}

/** Just the TCP columns of `row`. */
function tcpRow(row: ProcSocketRow): TcpRow {
  const { localPort, remoteAddress, remotePort, state, timer, inode } = row;
  return { localPort, remoteAddress, remotePort, state, timer, inode };
}

/** The rows of the text of /proc/net/tcp or /proc/net/tcp6; see {@linkcode parseSocketTable}. */
export function parseTcpTable(text: string): TcpRow[] {
  return parseSocketTable(text).map(tcpRow);
}

/**
 * The rows of `tables` with the table each came from, or null when none of
 * them can be read (not Linux, or no permission).
 */
export function readSocketRows(
  tables: readonly string[],
): { table: string; row: ProcSocketRow }[] | null {
  if (Deno.build.os !== "linux") return null;
  let rows: { table: string; row: ProcSocketRow }[] | null = null;
  for (const table of tables) {
    let text: string;
    try {
      text = Deno.readTextFileSync(table);
    } catch {
      continue;
    }
    rows ??= [];
    for (const row of parseSocketTable(text)) rows.push({ table, row });
  }
  return rows;
}

/**
 * Every row of /proc/net/tcp and /proc/net/tcp6, or null when neither can
 * be read (not Linux, or no permission).
 */
export function readTcpRows(): TcpRow[] | null {
  return readSocketRows(TCP_TABLES)?.map((r) => tcpRow(r.row)) ?? null;
}

/**
 * This process's open descriptors, in /proc/self/fd's order, or null when
 * it can not be read. A descriptor closed while listed may still appear.
 */
export function ownDescriptors(): number[] | null {
  if (Deno.build.os !== "linux") return null;
  try {
    return [...Deno.readDirSync("/proc/self/fd")].map((e) => Number(e.name));
  } catch {
    return null;
  }
}

/**
 * The first descriptor of this process whose socket has an inode in
 * `inodes`, with that inode, or null when there is none or /proc can not
 * be read.
 */
export function fdOfSocket(inodes: ReadonlySet<string>): { fd: number; inode: string } | null {
  if (inodes.size === 0) return null;
  for (const fd of ownDescriptors() ?? []) {
    let link: string;
    try {
      link = Deno.readLinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed meanwhile
    }
    if (!link.startsWith("socket:[")) continue;
    const inode = link.slice(8, -1);
    if (inodes.has(inode)) return { fd, inode };
  }
  return null;
}
