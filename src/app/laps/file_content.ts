/**
 * Reading a file someone asked to import: in chunks, so a caller can show
 * how far it got, then told apart by content (gzip unpacked first): a JSON
 * document, or the datagrams of a capture or record file.
 *
 * @module
 */
import { CaptureError } from "../../core/gt7/capture.ts";
import {
  type CaptureFile,
  captureFileOf,
  EXPECTED_FILES,
  type FileContent,
  fileContent,
  gunzipIfCompressed,
} from "../../core/gt7/capture_file.ts";

/** Bytes read between progress reports. */
export const CHUNK_BYTES = 64 * 1024;

/** A file that could not be read at all; `reason` is what the file system said. */
export class UnreadableFile extends Error {
  /** The file as named to the reader. */
  readonly path: string;
  /** The file system's own words. */
  readonly reason: string;
  /** The error for `path`, which could not be read for `reason`. */
  constructor(path: string, reason: string, cause: unknown) {
    super(`cannot read ${path}: ${reason}`, { cause });
    this.name = "UnreadableFile";
    this.path = path;
    this.reason = reason;
  }
}

/**
 * The bytes of the file at `path`, read in chunks of {@linkcode CHUNK_BYTES}.
 * `onRead` hears of the bytes read and the file's size before the first
 * chunk and after every chunk (the size grows with a file that grows).
 *
 * @throws {UnreadableFile} when the file cannot be opened or read.
 */
export async function readInChunks(
  path: string,
  onRead: (bytes: number, total: number) => void = () => {},
): Promise<Uint8Array> {
  try {
    using file = await Deno.open(path, { read: true });
    const total = (await file.stat()).size;
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let bytes = 0;
    onRead(bytes, total);
    for (;;) {
      const buffer = new Uint8Array(CHUNK_BYTES);
      const n = await file.read(buffer);
      if (n === null) break;
      chunks.push(buffer.subarray(0, n));
      bytes += n;
      onRead(bytes, Math.max(total, bytes));
    }
    return await new Blob(chunks).bytes();
  } catch (err) {
    throw new UnreadableFile(path, (err as Error).message, err);
  }
}

/** What a file to import holds. */
export type ImportContent =
  | { kind: "json"; bytes: Uint8Array }
  | { kind: "capture"; file: CaptureFile };

/**
 * What `bytes` (the file `name`) hold, told apart by content: gzip is
 * unpacked first, a record file or a capture is split into datagrams, and
 * a document whose first byte opens an object or array is JSON text,
 * left as bytes (its UTF-8 and JSON are judged by whoever reads it).
 *
 * @throws {EmptyFile} "NAME: the file is empty; ..." for no bytes (or a gzip
 *   stream of none), and an Error naming `name` and what would have been
 *   accepted for bytes that are none of these.
 */
export function importContent(bytes: Uint8Array, name: string): ImportContent {
  let content: FileContent | null = null;
  const expected = `expected a JSON lap file or track bundle, or ${EXPECTED_FILES}`;
  refuseEmpty(bytes, false, name, expected);
  try {
    const unzipped = gunzipIfCompressed(bytes);
    refuseEmpty(unzipped.bytes, unzipped.compressed, name, expected);
    content = fileContent(unzipped.bytes);
    if (content === "json") return { kind: "json", bytes: unzipped.bytes };
    return { kind: "capture", file: captureFileOf(unzipped) };
  } catch (err) {
    if (!(err instanceof CaptureError)) throw err;
    // Neither JSON nor a record file: say what would have been accepted.
    throw new Error(`${name}: ${err.message}${content === "packets" ? `; ${expected}` : ""}`);
  }
}

/**
 * The document in the UTF-8 JSON text `bytes` (the file `name`).
 *
 * @throws {SyntaxError} "NAME is not valid JSON: ..." for bytes that are not UTF-8 or not JSON.
 */
export function parseJsonBytes(bytes: Uint8Array, name: string): unknown {
  return parseJson(utf8(bytes, name), name);
}

/**
 * `bytes` (the file `name`, gzip unpacked) taken as JSON whatever they look
 * like, for a caller that expects a document of one kind.
 *
 * @throws {EmptyFile} for no bytes (or a gzip stream of none), and an Error
 *   for a broken gzip.
 */
export function jsonBytes(bytes: Uint8Array, name: string): Uint8Array {
  const expected = "expected a track bundle (JSON)";
  refuseEmpty(bytes, false, name, expected);
  let unzipped: { bytes: Uint8Array; compressed: boolean };
  try {
    unzipped = gunzipIfCompressed(bytes);
  } catch (err) {
    if (!(err instanceof CaptureError)) throw err;
    throw new Error(`${name}: ${err.message}`);
  }
  refuseEmpty(unzipped.bytes, unzipped.compressed, name, expected);
  return unzipped.bytes;
}

/**
 * Refuses `bytes` of the file `name` when there are none, saying so in a
 * driver's words (not as a capture or JSON that fails to parse, which is
 * what an empty file would be taken for next), and what was `expected`.
 *
 * @throws {EmptyFile} "NAME: the file is empty[ once gunzipped]; EXPECTED".
 */
function refuseEmpty(bytes: Uint8Array, gunzipped: boolean, name: string, expected: string): void {
  if (bytes.length === 0) throw new EmptyFile(name, gunzipped, expected);
}

/** A file to import that holds nothing (or a gzip stream of nothing). */
export class EmptyFile extends Error {
  /** The error for the file `name`, empty (once `gunzipped`), which should have held `expected`. */
  constructor(readonly path: string, gunzipped: boolean, expected: string) {
    super(`${path}: the file is empty${gunzipped ? " once gunzipped" : ""}; ${expected}`);
    this.name = "EmptyFile";
  }
}

/**
 * The document in `text` (the file `name`).
 *
 * @throws {SyntaxError} "NAME is not valid JSON: ..." for text that is not JSON.
 */
export function parseJson(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SyntaxError(`${name} is not valid JSON: ${(err as Error).message}`);
  }
}

function utf8(bytes: Uint8Array, name: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (err) {
    throw new SyntaxError(`${name} is not valid JSON: ${(err as Error).message}`);
  }
}
