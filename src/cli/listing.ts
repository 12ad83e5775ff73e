/**
 * `sessions` and `laps`: what the store holds, with the ids the other
 * commands take, as a table (or JSON with `--json`, as the API serves it).
 *
 * @module
 */
import type { Command } from "commander";
import type { LapListItem } from "../app/laps/lap_listing.ts";
import { lapListQuerySchema } from "../server/queries/lap_list_query.ts";
import { parseQuery } from "../server/query_params.ts";
import type { LapSummary } from "../core/laps/lap.ts";
import { formatLapTime } from "../core/laps/lap_time.ts";
import type { Session } from "../core/laps/session.ts";
import { dataOption, idArgument } from "./options.ts";
import { formatTable } from "./table.ts";
import { withStore } from "./with_store.ts";

/** Adds `sessions` and `laps` to `program`. */
export function addListingCommands(program: Command): void {
  dataOption(
    program.command("sessions")
      .description("list the stored sessions, newest first (JSON with --json)")
      .option("--json", "print them as JSON, as GET /api/sessions answers", false),
  ).action(async (flags: { data: string; json: boolean }) => {
    await withStore(flags.data, async (app) => {
      const sessions = await app.sessions.list();
      print(flags.json ? JSON.stringify(sessions) : sessionTable(sessions));
    });
  });

  dataOption(
    program.command("laps")
      .description(
        "list the laps of session SESSION, oldest first, or with no SESSION the laps of every " +
          "session, latest first (JSON with --json)",
      )
      .argument("[session]", "a session id, as `sessions` lists them")
      .option(
        "--json",
        "print them as JSON, as GET /api/sessions/{id}/laps (or GET /api/laps) answers",
        false,
      )
      .option("--track <name>", "every session: only laps at this circuit")
      .option("--order <order>", "every session: recent (latest first) or time (fastest first)")
      .option("--limit <n>", "every session: at most N laps, 1 to 1000 (default 100)"),
  ).action(async (session: string | undefined, flags: LapsFlags) => {
    const sessionId = session === undefined ? undefined : idArgument(session, "session");
    await withStore(flags.data, async (app) => {
      if (sessionId !== undefined) {
        for (const f of ["track", "order", "limit"] as const) {
          if (flags[f] !== undefined) {
            throw new Error(`--${f} lists across sessions; leave it out with a session id`);
          }
        }
        const laps = await app.sessions.laps(sessionId);
        print(flags.json ? JSON.stringify(laps) : sessionLapTable(laps));
        return;
      }
      const query: Record<string, string> = {};
      for (const f of ["track", "order", "limit"] as const) {
        if (flags[f] !== undefined) query[f] = flags[f];
      }
      // The command line is a face: it parses its flags as the route parses its query.
      const laps = await app.sessions.listAcross(parseQuery(lapListQuerySchema, query));
      print(flags.json ? JSON.stringify(laps) : lapTable(laps));
    });
  });
}

interface LapsFlags {
  data: string;
  json: boolean;
  track?: string;
  order?: string;
  limit?: string;
}

/** Prints `text`, a JSON document or table lines, to standard output. */
function print(text: string | string[]): void {
  console.log(typeof text === "string" ? text : text.join("\n"));
}

/** A stored time as `2026-11-24 10:00` (UTC), or the text as stored when it is not a time. */
function when(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toISOString().slice(0, 16).replace("T", " ");
}

/** The sessions table, or a line saying there are none. */
export function sessionTable(sessions: readonly Session[]): string[] {
  if (sessions.length === 0) return ["no sessions stored"];
  return formatTable(
    [
      { heading: "id", right: true },
      { heading: "kind" },
      { heading: "started (UTC)" },
      { heading: "car" },
      { heading: "track" },
      { heading: "laps", right: true },
      { heading: "best", right: true },
    ],
    sessions.map((s) => [
      String(s.id),
      s.kind,
      when(s.started_at),
      s.car_name,
      s.track_name === "" ? "-" : s.track_name,
      String(s.lap_count),
      s.best_lap_time_ms === null ? "-" : formatLapTime(s.best_lap_time_ms),
    ]),
  );
}

/** What to say after a lap's time: incomplete, or kept out of bests. */
function lapNote(lap: { complete: boolean; counts_for_best: boolean }): string {
  if (!lap.complete) return "incomplete";
  return lap.counts_for_best ? "" : "not for best";
}

/** The table of one session's laps, or a line saying it has none. */
export function sessionLapTable(laps: readonly LapSummary[]): string[] {
  if (laps.length === 0) return ["no laps in this session"];
  return formatTable(
    [
      { heading: "id", right: true },
      { heading: "lap", right: true },
      { heading: "time", right: true },
      { heading: "finished (UTC)" },
      { heading: "note" },
    ],
    laps.map((l) => [
      String(l.id),
      String(l.number),
      formatLapTime(l.time_ms),
      when(l.finished_at),
      lapNote(l),
    ]),
  );
}

/** The table of laps across sessions, or a line saying there are none. */
export function lapTable(laps: readonly LapListItem[]): string[] {
  if (laps.length === 0) return ["no laps stored"];
  return formatTable(
    [
      { heading: "id", right: true },
      { heading: "session", right: true },
      { heading: "lap", right: true },
      { heading: "time", right: true },
      { heading: "track" },
      { heading: "car" },
      { heading: "finished (UTC)" },
      { heading: "note" },
    ],
    laps.map((l) => [
      String(l.id),
      String(l.session_id),
      String(l.number),
      formatLapTime(l.time_ms),
      l.track === "" ? "-" : l.track,
      l.car_name,
      when(l.finished_at),
      lapNote(l),
    ]),
  );
}
