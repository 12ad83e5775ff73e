/**
 * Writes the record file of `--record FILE`: every datagram received, raw,
 * with its arrival time (format in src/core/gt7/record_file.ts). Writes are
 * buffered and synchronous, for the receive worker that owns the socket;
 * the file is size-capped and rotated so it can never fill the disk
 * unnoticed. A write error stops the recording (announced once), never the
 * receiving.
 *
 * @module
 */
import {
  encodeRecordHeader,
  RECORD_ENTRY_HEADER_BYTES,
  RECORD_HEADER_BYTES,
  RECORD_MAX_DATAGRAM_BYTES,
  writeRecordEntry,
} from "../core/gt7/record_file.ts";
import type { TelemetryRecordStatus } from "../app/live/telemetry_source.ts";
import { isStoreRefusal } from "../core/store_refusal.ts";

/** Buffered bytes that trigger a write. */
export const RECORD_BUFFER_BYTES = 64 * 1024;

/** Longest a datagram stays buffered before {@linkcode RecordWriter.tick} writes it. */
export const RECORD_FLUSH_MS = 250;

/** The smallest size cap: a fresh file must hold the largest datagram. */
export const MIN_RECORD_FILE_BYTES = RECORD_HEADER_BYTES + RECORD_ENTRY_HEADER_BYTES +
  RECORD_MAX_DATAGRAM_BYTES;

/** What `--record` asks for. */
export interface RecordOptions {
  /** The file being written; rotated files are FILE.1 (newest) to FILE.keep. */
  path: string;
  /** Size cap of each file, bytes (at least {@linkcode MIN_RECORD_FILE_BYTES}). */
  maxBytes: number;
  /** Rotated files kept beside FILE; the oldest beyond that is deleted. 0 keeps none. */
  keep: number;
}

/** The recording as the telemetry status shows it (bytes include buffered ones). */
export type RecordStatus = TelemetryRecordStatus;

/** A recording in progress. */
export class RecordWriter {
  readonly #opts: RecordOptions;
  readonly #notice: (line: string) => void;
  readonly #buffer = new Uint8Array(RECORD_BUFFER_BYTES);
  #file: Deno.FsFile | null = null;
  #buffered = 0;
  #written = 0;
  #rotated = 0;
  #lastFlushAt = 0;
  #error: string | null = null;

  /**
   * Starts recording to `opts.path` with a header dated `nowMs`. A file
   * already there is kept as FILE.1, as a rotation would (replaced when
   * `keep` is 0). Throws RangeError for
   * a cap or keep count out of range and the file system's error when the
   * file can not be created.
   */
  constructor(opts: RecordOptions, nowMs: number, notice: (line: string) => void) {
    if (!Number.isFinite(opts.maxBytes) || opts.maxBytes < MIN_RECORD_FILE_BYTES) {
      throw new RangeError(
        `record size cap must be at least ${MIN_RECORD_FILE_BYTES} bytes, got ${opts.maxBytes}`,
      );
    }
    if (!Number.isInteger(opts.keep) || opts.keep < 0) {
      throw new RangeError(`record keep must be a whole number >= 0, got ${opts.keep}`);
    }
    this.#opts = opts;
    this.#notice = notice;
    if (nonEmpty(opts.path)) {
      this.#shift();
      notice(
        opts.keep > 0
          ? `record: kept the earlier ${opts.path} as ${rotatedName(opts, 1)}`
          : `record: replaced the earlier ${opts.path} (--record-keep 0)`,
      );
    }
    this.#open(nowMs);
  }

  /** Appends one datagram that arrived at `atMs` (Unix ms); rotates first when the file is full. */
  write(atMs: number, datagram: Uint8Array): void {
    if (this.#file === null) return;
    const size = RECORD_ENTRY_HEADER_BYTES + datagram.length;
    try {
      if (this.#written + this.#buffered + size > this.#opts.maxBytes) this.#rotate(atMs);
      if (this.#buffered + size > this.#buffer.length) this.#flush();
      if (size > this.#buffer.length) {
        // Larger than the whole buffer (only oversized garbage): write it on its own.
        const entry = new Uint8Array(size);
        writeRecordEntry(entry, 0, atMs, datagram);
        writeAll(this.#file!, entry);
        this.#written += size;
        return;
      }
      this.#buffered += writeRecordEntry(this.#buffer, this.#buffered, atMs, datagram);
    } catch (err) {
      this.#fail(err);
    }
  }

  /** Writes what is buffered when the oldest of it is {@linkcode RECORD_FLUSH_MS} old. */
  tick(nowMs: number): void {
    if (this.#buffered > 0 && nowMs - this.#lastFlushAt >= RECORD_FLUSH_MS) this.flush(nowMs);
  }

  /** Writes what is buffered now. */
  flush(nowMs: number): void {
    this.#lastFlushAt = nowMs;
    if (this.#file === null) return;
    try {
      this.#flush();
    } catch (err) {
      this.#fail(err);
    }
  }

  /** Flushes and closes the file. Idempotent. */
  close(): void {
    if (this.#file === null) return;
    try {
      this.#flush();
    } catch (err) {
      this.#fail(err);
    }
    this.#closeFile();
  }

  /** The recording's state. */
  status(): RecordStatus {
    return {
      path: this.#opts.path,
      bytes: this.#written + this.#buffered,
      files_rotated: this.#rotated,
      error: this.#error,
    };
  }

  #open(nowMs: number): void {
    this.#file = Deno.openSync(this.#opts.path, { write: true, create: true, truncate: true });
    writeAll(this.#file, encodeRecordHeader(nowMs));
    this.#written = RECORD_HEADER_BYTES;
    this.#buffered = 0;
    this.#lastFlushAt = nowMs;
  }

  #flush(): void {
    if (this.#buffered === 0 || this.#file === null) return;
    writeAll(this.#file, this.#buffer.subarray(0, this.#buffered));
    this.#written += this.#buffered;
    this.#buffered = 0;
  }

  #rotate(nowMs: number): void {
    this.#flush();
    this.#closeFile();
    this.#shift();
    this.#rotated++;
    this.#notice(
      `record: ${this.#opts.path} reached ${this.#opts.maxBytes} bytes; ` +
        (this.#opts.keep > 0 ? `kept it as ${rotatedName(this.#opts, 1)}` : "discarded it") +
        ` and started a new file`,
    );
    this.#open(nowMs);
  }

  /** FILE.(keep-1) -> FILE.keep ... FILE -> FILE.1; the oldest beyond `keep` is deleted. */
  #shift(): void {
    const { path, keep } = this.#opts;
    removeIfPresent(keep === 0 ? path : rotatedName(this.#opts, keep));
    for (let i = keep - 1; i >= 1; i--) {
      renameIfPresent(rotatedName(this.#opts, i), rotatedName(this.#opts, i + 1));
    }
    if (keep > 0) renameIfPresent(path, rotatedName(this.#opts, 1));
  }

  #closeFile(): void {
    try {
      this.#file?.close();
    } catch {
      // Already closed.
    }
    this.#file = null;
  }

  #fail(err: unknown): void {
    this.#error = `${(err as Error).message}`;
    this.#notice(
      isStoreRefusal(err)
        ? `record: the disk is full; stopped writing ${this.#opts.path} (laps are still recorded): ${this.#error}`
        : `record: stopped recording to ${this.#opts.path}: ${this.#error}`,
    );
    this.#buffered = 0;
    this.#closeFile();
  }
}

/** The name of the `n`th rotated file. */
export function rotatedName(opts: Pick<RecordOptions, "path">, n: number): string {
  return `${opts.path}.${n}`;
}

function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += file.writeSync(bytes.subarray(done));
}

function nonEmpty(path: string): boolean {
  try {
    return Deno.statSync(path).size > 0;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
}

function removeIfPresent(path: string): void {
  try {
    Deno.removeSync(path);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
}

function renameIfPresent(from: string, to: string): void {
  try {
    Deno.renameSync(from, to);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
}
