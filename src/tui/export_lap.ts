/**
 * Lap exports from the dashboard: a stored lap written to a file in a
 * folder, as a lap file (JSON) or as MoTeC CSV.
 *
 * @module
 */
import { join, resolve } from "node:path";
import type { App } from "../app/context.ts";
import { exportLapCsv, exportLapFile } from "../app/lap_exchange.ts";

/** The two export formats. */
export type ExportKind = "json" | "csv";

/** The file name of lap `id`'s JSON export. */
export function lapJsonFilename(id: number): string {
  return `sim-datalogger-lap-${id}.json`;
}

/**
 * Writes lap `id` into folder `dir` (replacing a file of the same name) and
 * returns the absolute path written. JSON is the version 2 lap file the API
 * serves; CSV streams line by line under the name the CSV export gives.
 * Throws NotFound for an unknown lap, and the file system's error when the
 * folder cannot be written.
 */
export async function writeLapExport(
  app: App,
  id: number,
  kind: ExportKind,
  dir: string,
): Promise<string> {
  if (kind === "json") {
    const doc = await exportLapFile(app, id);
    const path = resolve(join(dir, lapJsonFilename(id)));
    await Deno.writeTextFile(path, JSON.stringify(doc) + "\n");
    return path;
  }
  const csv = await exportLapCsv(app, id);
  const path = resolve(join(dir, csv.filename));
  await Deno.writeTextFile(path, ReadableStream.from(csv.lines));
  return path;
}
