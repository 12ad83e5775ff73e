/**
 * Storing the laps of an import file (src/core/laps/import/recognise.ts):
 * every lap of the file in one new `imported` session, named as live laps
 * are (import_naming.ts) unless the file carries a circuit name, with the
 * file's format and the rate it was recorded at in the session's notes. All
 * or nothing: the laps go in as few commits as the store's limits allow
 * (storage/laps.ts saveLaps, one for a usual file), and a commit that fails
 * takes the session and the laps stored before it away with it.
 *
 * @module
 */
import { z } from "zod";
import { buildImportedLap } from "../../core/laps/lap_file.ts";
import { lapSummarySchema } from "../../core/laps/lap.ts";
import { sessionSchema } from "../../core/laps/session.ts";
import { carName, isKnownCar } from "../../core/catalog/cars.ts";
import {
  FORMAT_TITLES,
  IMPORT_FORMATS,
  type LapImportFile,
} from "../../core/laps/import/recognise.ts";
import { createSession } from "../../storage/sessions.ts";
import { removeSession } from "../../storage/session_removal.ts";
import { saveLaps } from "../../storage/laps.ts";
import type { AppDeps } from "../deps.ts";
import type { Naming, NamingLap } from "../tracks/import_naming.ts";

/** One lap an import stored. */
const importedRowSchema = z.strictObject({
  id: z.int().min(1),
  session_id: z.int().min(1),
  number: z.int(),
  time_ms: z.number(),
});

/** What an import did (`POST /api/laps/import`): the response schema. */
export const lapImportResultSchema = z.strictObject({
  /** The format the file was recognised as, by its content. */
  format: z.enum(IMPORT_FORMATS),
  /** Every lap stored, in file order, all in one new session. */
  imported: z.array(importedRowSchema).min(1),
  /** Laps of the file left out, each with its number in the file and why. */
  skipped: z.array(z.strictObject({ lap: z.int(), reason: z.string() })),
  /** The first lap stored, whole (the single-lap answer, kept for compatibility). */
  lap: lapSummarySchema,
  /** The session holding the laps, as written by the last commit of its laps. */
  session: sessionSchema,
  /** Always true: every import makes a new `imported` session to hold its laps. */
  created_session: z.literal(true),
});

/** What an import did. */
export type LapImportResult = z.output<typeof lapImportResultSchema>;

/**
 * gzip level of an import's samples: level 1 compresses 3.5 times as fast
 * as the default 6 for blobs 29 % larger (about 53 KB against 41 KB a lap
 * of Broad Bean's 2,000 samples), and a file brings its laps all at once,
 * where live laps come one a lap time apart (docs/performance.md, #39).
 */
const IMPORT_GZIP_LEVEL = 1;

/** How an import's session is named when its file carries no circuit name. */
export type NameLaps = (laps: readonly NamingLap[]) => Promise<Naming | null>;

/**
 * Stores the laps of `file` in a new `imported` session, never the live
 * one, and says what was stored and skipped. Each lap's coverage and metrics
 * are judged from its samples (see {@linkcode buildImportedLap}). The session
 * takes the circuit name the file's first lap carries, as a name the user
 * gave; a file without one is named by `nameLaps` as live naming would have
 * named its laps, or left unnamed. It takes the file's car name when the
 * car catalogue does not know the car. Its notes say the format and, for a
 * file recorded at another rate than 60 Hz, that rate.
 */
export async function storeImport(
  deps: Pick<AppDeps, "kv" | "now">,
  file: LapImportFile,
  nameLaps: NameLaps,
): Promise<LapImportResult> {
  const { kv } = deps;
  const now = deps.now().toISOString();
  const laps = file.laps.map((c) => {
    const { counts_for_best: _c, ...lap } = buildImportedLap(c.lap, now);
    return lap;
  });
  const first = file.laps[0].lap;
  const naming = first.track_name === "" ? await nameLaps(laps) : null;
  const session = await createSession(kv, {
    kind: "imported",
    started_at: now,
    car_id: laps[0].car_id,
    car_name: isKnownCar(laps[0].car_id) || first.car_name === ""
      ? carName(laps[0].car_id)
      : first.car_name,
    track_name: naming?.name ?? first.track_name,
    track_source: naming?.source ?? (first.track_name === "" ? "" : "user"),
    notes: importNotes(file),
  });
  try {
    // Stored now: the file's finish times may be long before this session began.
    const saved = await saveLaps(kv, session.id, laps, now, { level: IMPORT_GZIP_LEVEL });
    return {
      format: file.format,
      imported: saved.laps.map(({ id, session_id, number, time_ms }) => ({
        id,
        session_id,
        number,
        time_ms,
      })),
      skipped: file.skipped,
      lap: saved.laps[0],
      session: saved.session,
      created_session: true,
    };
  } catch (err) {
    await removeSession(kv, session.id);
    throw err;
  }
}

/**
 * The notes of an import's session: "" for our own lap file; else the
 * format, and the rates other than 60 Hz its laps were recorded at.
 */
export function importNotes(file: LapImportFile): string {
  if (file.format === "lap-file") return "";
  const rates = [...new Set(file.laps.map((l) => l.source_hz))].filter((hz) => hz !== 60);
  const resampled = rates.length === 0
    ? ""
    : ` Recorded at ${rates.join(", ")} Hz, resampled to the lap file's 60 Hz.`;
  return `Imported from a ${FORMAT_TITLES[file.format]}.${resampled}`;
}
