/**
 * MoTeC i2 logs of stored laps: one lap, or every stored lap of a session in
 * driving order, as the log a `.ld` and the `.ldx` beside it are encoded
 * from. Both files share a base name, which is how i2 pairs them. The log is
 * returned unencoded so a caller encodes only the file it needs: an HTTP
 * response carries one of the two, the CLI writes both from one load.
 *
 * @module
 */
import { carName } from "../../core/catalog/cars.ts";
import type { Lap } from "../../core/laps/lap.ts";
import type { Session } from "../../core/laps/session.ts";
import type { MotecLog } from "../../core/motec/log.ts";
import { NotFound } from "../../core/errors.ts";
import type { SessionService } from "./sessions.ts";
import { lapExportBase, sessionExportBase } from "./export_names.ts";
import { z } from "zod";

/** The event every log names: the game the laps were driven in. */
export const MOTEC_EVENT = "Gran Turismo 7";

/**
 * A MoTeC export: the base file name and the log both files are encoded
 * from (`encodeLd` for the `.ld`, `encodeLdx` for the `.ldx`, in
 * src/core/motec), each lap loaded with its samples.
 */
export interface MotecExport {
  /** File name without extension: {@linkcode lapExportBase} or {@linkcode sessionExportBase}. */
  basename: string;
  /** The laps in driving order and the header's words. */
  log: MotecLog;
}

/** Options of a MoTeC export. */
export interface MotecExportOptions {
  /** The driver's name for the header; "" when not given. */
  driver?: string;
}

const DRIVER_RULE = "must be at most 63 characters";

/**
 * A driver's name the log's header holds: at most 63 characters (the field
 * is 64 bytes with its terminator), refused rather than cut short; the
 * rule is the message of a fault. The API's `driver` query and the command
 * line's `--driver` both check with it.
 */
export const driverNameSchema = z.string({ error: DRIVER_RULE }).max(63, DRIVER_RULE)
  .meta({ description: `the driver's name in the log's header; ${DRIVER_RULE}` });

type Sessions = Pick<SessionService, "lap" | "laps" | "get">;

/** Lap `id` as a MoTeC log; NotFound when the lap is unknown. */
export async function exportLapMotec(
  sessions: Sessions,
  id: number,
  opts: MotecExportOptions = {},
): Promise<MotecExport> {
  const lap = await sessions.lap(id);
  const session = await sessions.get(lap.session_id);
  return build(lapExportBase(lap, session.track_name), [lap], session, opts);
}

/**
 * Every stored lap of session `id`, oldest first, as one MoTeC log;
 * NotFound when the session is unknown or holds no lap.
 */
export async function exportSessionMotec(
  sessions: Sessions,
  id: number,
  opts: MotecExportOptions = {},
): Promise<MotecExport> {
  const session = await sessions.get(id);
  const summaries = await sessions.laps(id);
  if (summaries.length === 0) throw new NotFound(`session ${id} has no laps to export`);
  const laps: Lap[] = [];
  for (const s of summaries) laps.push(await sessions.lap(s.id));
  return build(sessionExportBase(session), laps, session, opts);
}

function build(
  basename: string,
  laps: Lap[],
  session: Session,
  opts: MotecExportOptions,
): MotecExport {
  const log: MotecLog = {
    laps,
    driver: opts.driver ?? "",
    vehicle: carName(laps[0].car_id),
    venue: session.track_name,
    event: MOTEC_EVENT,
    session: `Session ${session.id}`,
  };
  return { basename, log };
}
