/**
 * Free space on the disk that holds the store, measured with `statfs`
 * (node:fs `statfsSync`, which Deno provides: about 7 µs a call on this
 * machine, so it needs neither FFI nor a `df` child process).
 *
 * @module
 */
import { statfsSync } from "node:fs";
import { dirname } from "node:path";

/** Measures the free space of one disk; the application is given one (see AppOptions.disk). */
export interface DiskProbe {
  /** The folder measured: the store's directory. */
  readonly where: string;
  /** Bytes an unprivileged writer may still use there, or null when it cannot be measured. */
  freeBytes(): number | null;
}

/** The probe of the disk holding the file (or folder) `path`. */
export function diskProbe(path: string, isFile = true): DiskProbe {
  const where = isFile ? dirname(path) : path;
  return {
    where,
    freeBytes() {
      try {
        const s = statfsSync(where);
        return Number(s.bavail) * Number(s.bsize);
      } catch {
        return null;
      }
    },
  };
}
