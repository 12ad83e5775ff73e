/**
 * One lap import for every format, told apart by content, never by a file
 * name: our lap file (versions 1 and 2), gt7dashboard's save, MoTeC CSV and
 * MoTeC .ld. Each parser is pure and reads the whole file before anything
 * is stored; a malformed file is refused whole. A lap that is no whole lap
 * (too short, a channel every lap needs missing, an out lap) is skipped with
 * its reason, and a file none of whose laps can be kept is refused.
 *
 * @module
 */
import { ImportRejected } from "../../errors.ts";
import { jsonBody } from "../../json_body.ts";
import { LAP_FILE_FORMAT, parseLapFile } from "../lap_file.ts";
import {
  type ConvertedLap,
  convertForeignLap,
  type ForeignFile,
  type SkippedLap,
} from "./foreign_lap.ts";
import { gt7dashboardLabel, isGt7dashboardSave, readGt7dashboard } from "./gt7dashboard.ts";
import { isMotecCsv, readMotecCsv } from "./motec_csv.ts";
import { isMotecLd, readMotecLd } from "./motec_ld.ts";

/** The formats an import recognises. */
export const IMPORT_FORMATS = ["lap-file", "gt7dashboard", "motec-csv", "motec-ld"] as const;

/** A format an import recognises. */
export type ImportFormat = typeof IMPORT_FORMATS[number];

/** Each format in words, for messages and session notes. */
export const FORMAT_TITLES: Record<ImportFormat, string> = {
  "lap-file": "sim-datalogger lap file",
  gt7dashboard: "gt7dashboard save",
  "motec-csv": "MoTeC CSV",
  "motec-ld": "MoTeC .ld log",
};

/** What an import file holds: its format, the laps to store and the laps left out. */
export interface LapImportFile {
  format: ImportFormat;
  /** Laps to store, in file order; never empty. */
  laps: ConvertedLap[];
  skipped: SkippedLap[];
}

/** What was accepted, for a refusal that names it. */
const EXPECTED = `expected a ${LAP_FILE_FORMAT} lap file (JSON, version 1 or 2), ` +
  `gt7dashboard's save (a JSON list of laps with data_* arrays), ` +
  `MoTeC CSV (first row "Format","MoTeC CSV File") or a MoTeC .ld log`;

/**
 * The laps of the import file `bytes`, recognised by content.
 *
 * @throws {BadRequest} (from jsonBody) for JSON text that does not parse (as every JSON
 * route says it); {@linkcode ImportRejected} naming what was recognised and
 * what is missing or wrong: a file of none of the formats, a malformed file
 * of one (a path per fault), or a file whose every lap was skipped (each
 * with its reason). Nothing is to be stored then.
 */
export function readLapImport(bytes: Uint8Array): LapImportFile {
  // Only the opening is decoded to tell the formats apart: a JSON file is decoded once, by jsonBody.
  const motec = motecFormatOf(bytes);
  if (motec === "motec-ld") return convertAll(motec, readMotecLd(bytes));
  if (motec === "motec-csv") return convertAll(motec, readMotecCsv(decode(bytes)));
  const opening = firstByte(bytes);
  if (opening !== 0x7b && opening !== 0x5b) {
    throw new ImportRejected({
      path: "$",
      message: `not a lap file of a known format: ${EXPECTED}`,
    });
  }
  return readLapImportJson(jsonBody(bytes));
}

/**
 * The laps of a JSON import document already parsed: gt7dashboard's save
 * or our lap file (anything else is refused as a lap file, saying why).
 *
 * @throws {ImportRejected} as {@linkcode readLapImport}.
 */
export function readLapImportJson(json: unknown): LapImportFile {
  if (isGt7dashboardSave(json)) {
    const laps = readGt7dashboard(json as unknown[]);
    return convertAll("gt7dashboard", { laps, skipped: [], label: gt7dashboardLabel });
  }
  if (Array.isArray(json)) {
    throw new ImportRejected({
      path: "$",
      message: "a JSON list, but not gt7dashboard's save: its entries need data_* arrays " +
        `(data_time, data_speed, data_throttle, data_braking, data_position_x, data_position_z); ${EXPECTED}`,
    });
  }
  return { format: "lap-file", laps: [{ lap: parseLapFile(json), source_hz: 60 }], skipped: [] };
}

/**
 * The text format `bytes` open as, for a caller that tells files apart
 * before reading them whole: MoTeC .ld or CSV, else null.
 */
export function motecFormatOf(bytes: Uint8Array): "motec-ld" | "motec-csv" | null {
  if (isMotecLd(bytes)) return "motec-ld";
  const head = new TextDecoder().decode(bytes.subarray(0, 1024)).replace(/^\uFEFF/, "").trimStart();
  return isMotecCsv(head) ? "motec-csv" : null;
}

/** Every lap of `file` made ready to store, or the refusal of a file with none. */
function convertAll(format: ImportFormat, file: ForeignFile): LapImportFile {
  const laps: ConvertedLap[] = [];
  const skipped = [...file.skipped];
  for (const lap of file.laps) {
    const done = convertForeignLap(lap, file.label);
    if (done.ok) laps.push(done.value);
    else skipped.push({ lap: lap.number, reason: done.reason });
  }
  if (laps.length === 0) {
    const why = skipped.length === 0
      ? "it holds no lap"
      : skipped.map((s) => `lap ${s.lap}: ${s.reason}`).join("; ");
    throw new ImportRejected({
      path: "$",
      message: `recognised as ${FORMAT_TITLES[format]}, but no lap can be imported: ${why}`,
    });
  }
  return { format, laps, skipped };
}

/** The first byte of `bytes` past a UTF-8 byte order mark and white space. */
function firstByte(bytes: Uint8Array): number | undefined {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)
  ) i++;
  return bytes[i];
}

/** `bytes` as text: UTF-8, or Latin-1 (as Windows tools write CSV) when they are not UTF-8. */
function decode(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("latin1").decode(bytes);
  }
}
