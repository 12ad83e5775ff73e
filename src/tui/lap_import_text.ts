/**
 * What the dashboard's lap import says once done or refused: one line for
 * the notice under the sessions, in the words the `import` command uses.
 *
 * @module
 */
import type { FileImportResult } from "../app/laps/files.ts";
import { UnreadableFile } from "../app/laps/files.ts";
import { FORMAT_TITLES } from "../core/laps/import/recognise.ts";
import { formatLapTime } from "../core/laps/lap_time.ts";
import { plural } from "./format.ts";

/**
 * What `done` stored: for laps, how many, their times, the session they
 * went into, the format recognised and each lap skipped with its reason;
 * for a bundle or a capture (the one import takes those too), what it was.
 */
export function lapImportText(done: FileImportResult): string {
  if (done.kind === "bundle") {
    const r = done.result;
    return `imported bundle "${r.track}": ${r.edges_before} -> ${r.edges} cells (+${r.added_edges})`;
  }
  if (done.kind === "capture") {
    const r = done.result;
    return `imported ${plural(r.laps, "lap")} of a capture into ` +
      `${plural(r.sessions.length, "new session")}`;
  }
  const r = done.result;
  const times = r.imported.map((l) => formatLapTime(l.time_ms)).join(", ");
  const skipped = r.skipped.map((s) => `; skipped lap ${s.lap}: ${s.reason}`).join("");
  return `imported ${plural(r.imported.length, "lap")} (${times}) into new session ` +
    `${r.session.id} from a ${FORMAT_TITLES[r.format]}${skipped}`;
}

/**
 * Why an import was refused: what the file system said for a file that
 * cannot be read, the first fault with its path for a rejected document,
 * else the error's own message (which names the file and what is missing).
 */
export function importRefusal(err: unknown): string {
  if (err instanceof UnreadableFile) return err.reason;
  const issues = (err as { issues?: { path: string; message: string }[] }).issues;
  const first = issues?.[0];
  return first ? `${first.path}: ${first.message}` : (err as Error).message;
}
