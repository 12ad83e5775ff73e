/**
 * The files `import` and `replay` read, told apart by content rather than by
 * name: a capture (back-to-back packets, encrypted or decrypted), a record
 * file written by `--record` (every datagram with its arrival time), either
 * of them gzip-compressed, or (for `import` only) a JSON document.
 *
 * Kept apart from capture.ts because the record file module builds on that
 * one's error type; this module joins the two.
 *
 * @module
 */
import { gunzipSync } from "node:zlib";
import { CaptureError, isGzip, splitCapture } from "./capture.ts";
import { decryptPacket, hasMagic } from "./cipher.ts";
import { formatOfSize, PACKET_FORMATS, PACKET_SIZE, type PacketFormat } from "./format.ts";
import { isRecordFile, parseRecordFile } from "./record_file.ts";

/** The most bytes a gzip-compressed file may expand to (1 GiB). */
export const MAX_GUNZIPPED_BYTES = 1 << 30;

/** What a file holds once gunzipped: a record file, a JSON document, or packets. */
export type FileContent = "record" | "json" | "packets";

/**
 * What a file given to `replay` (and, besides JSON, to `import`) is expected
 * to be: for the message of a file that is none of these.
 */
export const EXPECTED_FILES =
  "a capture of GT7 packets (.gt7 encrypted as the console sent them, or .gt7.gz decrypted), " +
  "or a record file written by --record (plain or gzip)";

/**
 * Gunzips `bytes` when they start with the gzip signature; returns them as
 * they are otherwise. Throws {@linkcode CaptureError} for a broken gzip
 * stream or one that expands beyond {@linkcode MAX_GUNZIPPED_BYTES}.
 */
export function gunzipIfCompressed(bytes: Uint8Array): { bytes: Uint8Array; compressed: boolean } {
  if (!isGzip(bytes)) return { bytes, compressed: false };
  try {
    return {
      bytes: new Uint8Array(gunzipSync(bytes, { maxOutputLength: MAX_GUNZIPPED_BYTES })),
      compressed: true,
    };
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new CaptureError(
      code === "ERR_BUFFER_TOO_LARGE"
        ? `gzip file expands to more than ${MAX_GUNZIPPED_BYTES} bytes; gunzip it and split it`
        : `file starts as gzip but is not valid gzip: ${(err as Error).message}`,
    );
  }
}

/**
 * What uncompressed `bytes` hold: `record` when they start with the record
 * magic, `packets` when they start with the GT7 magic, `json` when the first
 * byte that is not white space (after a UTF-8 byte order mark, if any) opens
 * an object or an array (unless the first packet-sized slot decrypts to the
 * magic: an encrypted packet may start with any byte), otherwise `packets`,
 * which the capture parser then accepts or refuses.
 */
export function fileContent(bytes: Uint8Array): FileContent {
  if (isRecordFile(bytes)) return "record";
  if (hasMagic(bytes, 0)) return "packets";
  // A UTF-8 byte order mark may precede a JSON document.
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && isJsonSpace(bytes[i])) i++;
  if ((bytes[i] === 0x7b || bytes[i] === 0x5b) && !decryptsAsPacket(bytes)) return "json";
  return "packets";
}

function isJsonSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

function decryptsAsPacket(bytes: Uint8Array): boolean {
  return PACKET_FORMATS.some((f: PacketFormat) => {
    const size = PACKET_SIZE[f];
    return bytes.length >= size && decryptPacket(bytes.subarray(0, size), f) !== null;
  });
}

/**
 * The datagrams of a capture or record file, in file order, ready to be fed
 * to the recorder as the live client feeds it: each one's format follows from
 * its size, and each is checked (and decrypted when `encrypted`) on the way.
 */
export interface CaptureFile {
  /** `capture` for back-to-back packets, `record` for a file written by `--record`. */
  readonly kind: "capture" | "record";
  /** True when the file was gzip-compressed. */
  readonly compressed: boolean;
  /** True when the datagrams are as the console sent them (a record file always is). */
  readonly encrypted: boolean;
  /** The packet format of a capture; null for a record file, whose datagrams may differ. */
  readonly format: PacketFormat | null;
  /** Every whole datagram (or packet slot): views into the bytes given, not copies. */
  readonly datagrams: readonly Uint8Array[];
  /** The arrival time of each datagram (Unix ms), for a record file; null for a capture. */
  readonly arrivals: readonly number[] | null;
  /** When the record file was started (Unix ms); null for a capture. */
  readonly startedAtMs: number | null;
  /**
   * Bytes ignored at the end: a truncated final entry of a record file (a
   * killed recorder leaves one), or a partial packet after a capture's last.
   */
  readonly trailingBytes: number;
}

/**
 * Reads a capture or record file, gzip-compressed or not. Throws
 * {@linkcode CaptureError} naming the problem and what was expected for
 * anything else: empty bytes, a JSON document, broken gzip, a bad record
 * header or a record file without a whole entry, an unrecognisable capture or
 * one that mixes packet sizes.
 */
export function openCaptureFile(bytes: Uint8Array): CaptureFile {
  return captureFileOf(gunzipIfCompressed(bytes));
}

/**
 * {@linkcode openCaptureFile} for bytes already gunzipped by
 * {@linkcode gunzipIfCompressed}, for a caller that looked at the content
 * first. Throws as {@linkcode openCaptureFile} does.
 */
export function captureFileOf(unzipped: { bytes: Uint8Array; compressed: boolean }): CaptureFile {
  const inner = unzipped.bytes;
  if (inner.length === 0) {
    throw new CaptureError(`capture is empty${unzipped.compressed ? " once gunzipped" : ""}`);
  }
  const content = fileContent(inner);
  if (content === "json") {
    throw new CaptureError("file holds JSON, not packets");
  }
  if (content === "record") {
    const record = parseRecordFile(inner);
    if (record.datagrams.length === 0) {
      throw new CaptureError(
        "record file holds no datagrams" +
          (record.trailingBytes
            ? ` (only a truncated entry of ${record.trailingBytes} bytes)`
            : ""),
      );
    }
    return {
      kind: "record",
      compressed: unzipped.compressed,
      encrypted: true,
      format: null,
      datagrams: record.datagrams.map((d) => d.bytes),
      arrivals: record.datagrams.map((d) => d.atMs),
      startedAtMs: record.startedAtMs,
      trailingBytes: record.trailingBytes,
    };
  }
  const split = splitCapture(inner);
  return {
    kind: "capture",
    compressed: unzipped.compressed,
    encrypted: split.encrypted,
    format: split.format,
    datagrams: split.slots,
    arrivals: null,
    startedAtMs: null,
    trailingBytes: split.trailingBytes,
  };
}

/** Reusable output buffers for decryption, one per format. */
export type DecryptBuffers = Partial<Record<PacketFormat, Uint8Array>>;

/**
 * The packet a datagram carries, decrypted when `encrypted`, or why the live
 * client would drop it: `size` when its size matches no format, `magic` when
 * it fails the magic check. A decrypted packet is written into the buffer of
 * its format in `buffers` when there is one (and is then only valid until
 * that buffer is reused), else into a fresh array; a packet that needs no
 * decryption is the datagram itself.
 */
export function packetOf(
  datagram: Uint8Array,
  encrypted: boolean,
  buffers?: DecryptBuffers,
): Uint8Array | "size" | "magic" {
  const format = formatOfSize(datagram.length);
  if (format === null) return "size";
  if (!encrypted) return hasMagic(datagram, 0) ? datagram : "magic";
  return decryptPacket(datagram, format, buffers?.[format]) ?? "magic";
}
