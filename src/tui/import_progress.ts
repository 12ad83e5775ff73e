/**
 * How far a file import is, as the dashboard's progress bar shows it.
 *
 * @module
 */
import type { ImportProgress } from "../app/laps/files.ts";

/**
 * How far `p` is, 0..1: the three steps count one third each; reading
 * advances with the bytes read, recording a capture with its packets, and
 * parsing and importing count once finished.
 */
export function importFraction(p: ImportProgress): number {
  switch (p.phase) {
    case "read":
      return p.total > 0 ? p.bytes / p.total / 3 : 0;
    case "parse":
      return 1 / 3;
    case "import":
      return 2 / 3;
    case "record":
      return 1 / 3 + (p.packets.total > 0 ? p.packets.done / p.packets.total : 1) * 2 / 3;
    case "done":
      return 1;
  }
}
