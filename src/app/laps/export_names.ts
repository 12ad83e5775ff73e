/**
 * The names exports get in a folder. Lap and session ids restart in every
 * store (an in-memory demo's lap 1 is not the real lap 1), so a name also
 * carries the circuit and a time: one store's export never replaces
 * another's in a shared folder. Every name matches
 * `^sim-datalogger-(lap|session)-[a-z0-9-]+$` before its extension: safe on
 * Linux, macOS and Windows.
 *
 * @module
 */
import { slugify } from "../../core/bundle/slug.ts";
import type { Lap } from "../../core/laps/lap.ts";
import type { Session } from "../../core/laps/session.ts";

/** `-yyyymmdd-hhmmss` of an ISO time in UTC, or "" when it is not one. */
function stamp(iso: string): string {
  const when = Date.parse(iso);
  return Number.isNaN(when)
    ? ""
    : "-" + new Date(when).toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
}

/**
 * A lap's export name without extension:
 * `sim-datalogger-lap-<id>-<circuit>-s<session>-<yyyymmdd-hhmmss>`, the
 * circuit slugified (`unnamed` when it has no name) and the time the lap
 * finished in UTC (left out when unknown).
 */
export function lapExportBase(
  lap: Pick<Lap, "id" | "session_id" | "finished_at">,
  track: string,
): string {
  return `sim-datalogger-lap-${lap.id}-${slugify(track)}-s${lap.session_id}${
    stamp(lap.finished_at)
  }`;
}

/** The two lap export formats. */
export type LapExportKind = "json" | "csv";

/**
 * The file name a lap's export gets in a folder or a download:
 * {@linkcode lapExportBase} and the kind as extension, such as
 * `sim-datalogger-lap-12-suzuka-circuit-s3-20261124-100102.json`.
 */
export function lapExportFilename(
  lap: Pick<Lap, "id" | "session_id" | "finished_at">,
  track: string,
  kind: LapExportKind,
): string {
  return `${lapExportBase(lap, track)}.${kind}`;
}

/**
 * A session's export name without extension:
 * `sim-datalogger-session-<id>-<circuit>-<yyyymmdd-hhmmss>`, the time the
 * session started in UTC (left out when unknown).
 */
export function sessionExportBase(
  session: Pick<Session, "id" | "track_name" | "started_at">,
): string {
  return `sim-datalogger-session-${session.id}-${slugify(session.track_name)}${
    stamp(session.started_at)
  }`;
}
