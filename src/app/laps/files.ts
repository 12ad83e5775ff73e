/**
 * Files in and out, for every face alike (the command line's `import` and
 * `export`, the dashboard's exports and bundle import): a file named by a
 * path is read with progress, told apart by content and imported; a stored
 * lap or bundle is written to a folder (under its conventional name), to a
 * path, or to a stream such as standard output.
 *
 * @module
 */
import { isAbsolute, join, resolve } from "node:path";
import { serialiseBundle } from "../../core/bundle/serialise.ts";
import { BUNDLE_FORMAT } from "../../core/bundle/types.ts";
import type { CaptureFile } from "../../core/gt7/capture_file.ts";
import { LAP_FILE_FORMAT } from "../../core/laps/lap_file.ts";
import { motecFormatOf } from "../../core/laps/import/recognise.ts";
import { isGt7dashboardSave } from "../../core/laps/import/gt7dashboard.ts";
import { encodeLd } from "../../core/motec/ld_writer.ts";
import { encodeLdx } from "../../core/motec/ldx_writer.ts";
import type { BundleImportResult, BundleService } from "../bundles/bundles.ts";
import type { LapExportKind } from "./export_names.ts";
import type { CaptureImportProgress, CaptureImportResult } from "./capture_import.ts";
import { importContent, jsonBytes, parseJsonBytes, readInChunks } from "./file_content.ts";
import type { LapExchange, LapImportResult } from "./lap_exchange.ts";
import type { MotecExport, MotecExportOptions } from "./motec_export.ts";

export { CHUNK_BYTES, UnreadableFile } from "./file_content.ts";

/** Where an export goes. */
export type ExportTarget =
  /** Into this folder, under the export's conventional file name (replacing one of that name). */
  | { dir: string }
  /** To this file (replacing it). */
  | { path: string }
  /** Onto this stream, which stays open (standard output). */
  | { stream: WritableStream<Uint8Array> };

/** What an import was, and what it did. */
export type FileImportResult =
  | { kind: "bundle"; result: BundleImportResult }
  | { kind: "lap"; result: LapImportResult }
  | { kind: "capture"; file: CaptureFile; result: CaptureImportResult };

/**
 * Where an import stands: reading (bytes so far), then for a JSON document
 * parsing and importing, for a capture recording its packets; then done.
 */
export type ImportProgress =
  | { phase: "read"; bytes: number; total: number }
  | { phase: "parse"; bytes: number; total: number }
  | { phase: "import"; bytes: number; total: number }
  | { phase: "record"; bytes: number; total: number; packets: CaptureImportProgress }
  | { phase: "done"; bytes: number; total: number; result: FileImportResult };

/** Options of {@linkcode FileService.importFile} and {@linkcode FileService.importBundleFile}. */
export interface FileImportOptions {
  /** The folder a relative path is taken from; by default the process's own. */
  dir?: string;
  /** A circuit name a bundle is stored under instead of its own. */
  track?: string;
  /** Called before the first chunk, after every chunk, and as each later phase starts. */
  onProgress?: (progress: ImportProgress) => void;
  /**
   * Awaited after announcing the parse and the import of a JSON document,
   * which block the thread: a screen drawing at a bounded rate gets to show
   * the phase first.
   */
  pause?: () => Promise<void>;
}

/** The file name of bundle `slug`'s export. */
export function bundleFilename(slug: string): string {
  return `sim-datalogger-bundle-${slug}.json`;
}

/** What the file service calls on the other services. */
export interface FileServices {
  bundles: Pick<BundleService, "export" | "importBytes">;
  laps: Pick<
    LapExchange,
    | "importBytes"
    | "exportNamedFile"
    | "exportCsv"
    | "importFile"
    | "importCapture"
    | "exportMotec"
    | "exportSessionMotec"
  >;
}

/** Imports and exports through files. */
export class FileService {
  readonly #bundles: FileServices["bundles"];
  readonly #laps: FileServices["laps"];

  /** Files over the bundle and lap services. */
  constructor(services: FileServices) {
    this.#bundles = services.bundles;
    this.#laps = services.laps;
  }

  /**
   * Reads the file at `path` and imports what it holds, told apart by
   * content: a JSON track bundle (versions 1-4) or lap file (versions 1-2),
   * by its `format`; gt7dashboard's save, MoTeC CSV or a MoTeC .ld log (the
   * lap exchange's importBytes); or the laps of a capture or record file
   * (gzip or not).
   * Nothing is stored when the file is refused.
   *
   * @throws {UnreadableFile} "cannot read PATH: ..." when the file cannot be
   *   read; an Error naming the file for content that is none of these (or
   *   JSON of another format); a SyntaxError for JSON that does not parse;
   *   and the import's own errors (ImportRejected with a path per fault).
   */
  async importFile(path: string, opts: FileImportOptions = {}): Promise<FileImportResult> {
    const file = await readFile(path, opts);
    if (motecFormatOf(file.bytes) !== null) {
      await file.parsing();
      await file.importing();
      return file.done({ kind: "lap", result: await this.#laps.importBytes(file.bytes) });
    }
    const content = importContent(file.bytes, file.name);
    if (content.kind === "capture") {
      const result = await this.#laps.importCapture(content.file, {
        onProgress: (packets) => file.report("record", { packets }),
      });
      return file.done({ kind: "capture", file: content.file, result });
    }
    await file.parsing();
    await file.importing();
    let json: unknown;
    try {
      // The bytes, as over HTTP: a bundle is read straight into a table, never parsed. Only
      // what that reader declines is parsed, and a document of another format comes back here.
      const result = await this.#bundles.importBytes(
        content.bytes,
        { track: opts.track },
        (bytes) => {
          const parsed = parseJsonBytes(bytes, file.name);
          if (formatOf(parsed) !== BUNDLE_FORMAT) throw new NotABundle(parsed);
          return parsed;
        },
      );
      return file.done({ kind: "bundle", result });
    } catch (err) {
      if (!(err instanceof NotABundle)) throw err;
      json = err.json;
    }
    const format = formatOf(json);
    if (format !== LAP_FILE_FORMAT && !isGt7dashboardSave(json)) {
      throw new Error(
        `${file.name} has format ${JSON.stringify(format ?? null)}; expected "${BUNDLE_FORMAT}" ` +
          `(a track bundle) or "${LAP_FILE_FORMAT}" (a lap file), or gt7dashboard's save ` +
          "(a JSON list of laps with data_* arrays)",
      );
    }
    return file.done({ kind: "lap", result: await this.#laps.importFile(json) });
  }

  /**
   * Reads the file at `path` as a track bundle, whatever its `format` says,
   * so a wrong one is refused by the bundle rules with a path per fault
   * (the dashboard's bundle import), and imports it.
   *
   * @throws {UnreadableFile} when the file cannot be read; a SyntaxError
   *   naming the file for text that is not JSON; and the bundle import's
   *   errors (ImportRejected with a path per fault). Nothing is stored then.
   */
  async importBundleFile(path: string, opts: FileImportOptions = {}): Promise<BundleImportResult> {
    const file = await readFile(path, opts);
    const bytes = jsonBytes(file.bytes, file.name);
    // Read and checked in one pass by the byte reader, as over HTTP: both phases start here.
    await file.parsing();
    await file.importing();
    const result = await this.#bundles.importBytes(
      bytes,
      { track: opts.track },
      (declined) => parseJsonBytes(declined, file.name),
    );
    file.done({ kind: "bundle", result });
    return result;
  }

  /**
   * Writes bundle `slug` as its canonical version 4 JSON to `to`. Returns
   * the file written (absolute when written into a folder), or null for a
   * stream.
   *
   * @throws {NotFound} when no bundle is stored under `slug`, and the file
   *   system's error when the file cannot be written.
   */
  async exportBundle(slug: string, to: ExportTarget): Promise<string | null> {
    const text = serialiseBundle(await this.#bundles.export(slug)) + "\n";
    return await write(to, bundleFilename(slug), [text]);
  }

  /**
   * Writes lap `id` to `to`: as the version 2 lap file the API serves
   * (`json`), or as MoTeC CSV streamed line by line (`csv`); into a folder
   * under the name the lap exchange gives it (export_names.ts). Returns the file written (absolute when written
   * into a folder), or null for a stream.
   *
   * @throws {NotFound} for an unknown lap, and the file system's error when
   *   the file cannot be written.
   */
  async exportLap(id: number, kind: LapExportKind, to: ExportTarget): Promise<string | null> {
    if (kind === "json") {
      const { filename, file } = await this.#laps.exportNamedFile(id);
      return await write(to, filename, [JSON.stringify(file) + "\n"]);
    }
    const csv = await this.#laps.exportCsv(id);
    return await write(to, csv.filename, csv.lines);
  }

  /** Writes a MoTeC i2 log into `dir`; see {@linkcode exportMotecFiles}. */
  exportMotec(
    subject: MotecSubject,
    id: number,
    dir: string,
    opts: MotecExportOptions = {},
  ): Promise<[ld: string, ldx: string]> {
    return exportMotecFiles(this.#laps, subject, id, dir, opts);
  }
}

/** What a MoTeC export is of: one lap, or every lap of a session. */
export type MotecSubject = "lap" | "session";

/**
 * Writes the MoTeC i2 log of lap or session `id` into folder `dir` (made
 * when missing) as
 * `<base>.ld` and `<base>.ldx` (replacing files of those names), and returns
 * both paths, absolute. Both are written under temporary names first and
 * renamed only once both are whole, so a failure leaves neither half.
 *
 * @throws {NotFound} for an unknown lap or session (or one without laps),
 *   and the file system's error when a file cannot be written.
 */
export async function exportMotecFiles(
  laps: FileServices["laps"],
  subject: MotecSubject,
  id: number,
  dir: string,
  opts: MotecExportOptions = {},
): Promise<[ld: string, ldx: string]> {
  const { basename, log }: MotecExport = subject === "lap"
    ? await laps.exportMotec(id, opts)
    : await laps.exportSessionMotec(id, opts);
  // Both encoded from the one load, before anything touches the folder.
  const ldBytes = encodeLd(log);
  const ldxText = encodeLdx(log);
  const ld = resolve(join(dir, `${basename}.ld`));
  const ldx = resolve(join(dir, `${basename}.ldx`));
  const part = `.partial-${Deno.pid}`;
  await Deno.mkdir(dir, { recursive: true });
  try {
    await Deno.writeFile(ld + part, ldBytes);
    await Deno.writeTextFile(ldx + part, ldxText);
    await Deno.rename(ld + part, ld);
    await Deno.rename(ldx + part, ldx);
  } catch (err) {
    for (const p of [ld + part, ldx + part]) await Deno.remove(p).catch(() => {});
    throw err;
  }
  return [ld, ldx];
}

/** The `format` a parsed JSON document declares, or undefined. */
function formatOf(json: unknown): unknown {
  return (json as { format?: unknown } | null)?.format;
}

/** A JSON file to import that is not a bundle: its parsed document, for the other importers. */
class NotABundle extends Error {
  /** Carries the parsed document `json`. */
  constructor(readonly json: unknown) {
    super("not a track bundle");
  }
}

/** A file read for import, and the progress reports of its later phases. */
interface ReadFile {
  /** The file as named in messages: the path, resolved against the folder when one was given. */
  name: string;
  bytes: Uint8Array;
  /** Reports `phase` with the file's size. */
  report(phase: "record", extra: { packets: CaptureImportProgress }): void;
  /** Reports the parse and lets the screen show it. */
  parsing(): Promise<void>;
  /** Reports the import and lets the screen show it. */
  importing(): Promise<void>;
  /** Reports the end; returns `result`. */
  done<T extends FileImportResult>(result: T): T;
}

/** Reads `path` (relative to `opts.dir` when given), reporting each chunk. */
async function readFile(path: string, opts: FileImportOptions): Promise<ReadFile> {
  const name = opts.dir === undefined || isAbsolute(path) ? path : resolve(join(opts.dir, path));
  const report = opts.onProgress ?? (() => {});
  const pause = opts.pause ?? (() => Promise.resolve());
  const bytes = await readInChunks(name, (n, total) => report({ phase: "read", bytes: n, total }));
  const size = { bytes: bytes.byteLength, total: bytes.byteLength };
  const parsing = async () => {
    report({ phase: "parse", ...size });
    await pause();
  };
  return {
    name,
    bytes,
    report: (phase, extra) => report({ phase, ...size, ...extra }),
    parsing,
    async importing() {
      report({ phase: "import", ...size });
      await pause();
    },
    done(result) {
      report({ phase: "done", ...size, result });
      return result;
    },
  };
}

/** Writes `parts` to `to` (a folder's file `name`, a path, or a stream left open). */
async function write(
  to: ExportTarget,
  name: string,
  parts: Iterable<string>,
): Promise<string | null> {
  if ("stream" in to) {
    const writer = to.stream.getWriter();
    const encoder = new TextEncoder();
    try {
      for (const part of parts) await writer.write(encoder.encode(part));
    } finally {
      writer.releaseLock();
    }
    return null;
  }
  const path = "dir" in to ? resolve(join(to.dir, name)) : to.path;
  await Deno.writeTextFile(path, ReadableStream.from(parts));
  return path;
}
