/**
 * Track bundles to and from files for the dashboard: an export written into
 * a folder, and an import read from a path in chunks, reporting real
 * progress (bytes read, then each phase as it starts) so the view can draw
 * a progress bar.
 *
 * @module
 */
import { isAbsolute, join, resolve } from "node:path";
import type { App } from "../app/context.ts";
import { type BundleImportResult, exportBundle, importBundle } from "../app/bundles.ts";
import { serialiseBundle } from "../core/bundle/serialise.ts";

/** The file name of bundle `slug`'s export. */
export function bundleFilename(slug: string): string {
  return `sim-datalogger-bundle-${slug}.json`;
}

/**
 * Writes bundle `slug` into folder `dir` as its canonical version 4 JSON
 * (replacing a file of the same name) and returns the absolute path.
 *
 * @throws {NotFound} when no bundle is stored under `slug`, and the file
 *   system's error when the folder cannot be written.
 */
export async function writeBundleExport(app: App, slug: string, dir: string): Promise<string> {
  const text = serialiseBundle(await exportBundle(app, slug)) + "\n";
  const path = resolve(join(dir, bundleFilename(slug)));
  await Deno.writeTextFile(path, text);
  return path;
}

/** Where an import stands. */
export type ImportProgress =
  | { phase: "read"; bytes: number; total: number }
  | { phase: "parse"; bytes: number; total: number }
  | { phase: "import"; bytes: number; total: number }
  | { phase: "done"; bytes: number; total: number; result: BundleImportResult };

/** Bytes read between progress reports. */
export const CHUNK_BYTES = 64 * 1024;

/** The import's three steps in order: read, parse, then validate-merge-store. */
export const IMPORT_STEPS = ["read", "parse", "import"] as const;

/**
 * How far `p` is, 0..1: the three steps count one third each; reading
 * advances with the bytes read, parsing and importing count once finished.
 */
export function importFraction(p: ImportProgress): number {
  switch (p.phase) {
    case "read":
      return p.total > 0 ? p.bytes / p.total / 3 : 0;
    case "parse":
      return 1 / 3;
    case "import":
      return 2 / 3;
    case "done":
      return 1;
  }
}

/**
 * Reads the bundle at `path` (relative paths are taken from `dir`) in
 * chunks of {@linkcode CHUNK_BYTES}, parses it and imports it with
 * {@linkcode importBundle}, calling `onProgress` after every chunk and as
 * each later phase starts. Parsing and importing block the thread, so
 * before each `pause` is awaited: a screen drawing at a bounded rate gets
 * to show the phase. Returns the import's result.
 *
 * @throws the file system's error for an unreadable file, a SyntaxError
 *   naming the file for text that is not JSON, and importBundle's errors
 *   (ImportRejected with a path per fault); nothing is stored then.
 */
export async function importBundleFile(
  app: App,
  path: string,
  dir: string,
  onProgress: (p: ImportProgress) => void,
  pause: () => Promise<void> = () => Promise.resolve(),
): Promise<BundleImportResult> {
  const full = isAbsolute(path) ? path : resolve(join(dir, path));
  using file = await Deno.open(full, { read: true });
  const total = (await file.stat()).size;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const buffer = new Uint8Array(CHUNK_BYTES);
  let bytes = 0;
  let text = "";
  onProgress({ phase: "read", bytes, total });
  for (;;) {
    const n = await file.read(buffer);
    if (n === null) break;
    bytes += n;
    text += decoder.decode(buffer.subarray(0, n), { stream: true });
    onProgress({ phase: "read", bytes, total: Math.max(total, bytes) });
  }
  text += decoder.decode();
  onProgress({ phase: "parse", bytes, total: bytes });
  await pause();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new SyntaxError(`${full} is not valid JSON: ${(err as Error).message}`);
  }
  onProgress({ phase: "import", bytes, total: bytes });
  await pause();
  const result = await importBundle(app, json);
  onProgress({ phase: "done", bytes, total: bytes, result });
  return result;
}
