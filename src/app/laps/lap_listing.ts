/**
 * Laps across sessions: the list with its filters (`GET /api/laps`) and the
 * bests of every circuit and car (`GET /api/laps/bests`), both answered
 * from the lap index (src/storage/lap_index.ts), never from a lap's samples.
 * A lap's circuit is its session's: named by the session's track name and
 * keyed by its slug, so a rename moves every lap of the session.
 *
 * @module
 */
import { z } from "zod";
import { carName } from "../../core/catalog/cars.ts";
import type { Session } from "../../core/laps/session.ts";
import { circuitOf, slugify } from "../../core/bundle/slug.ts";
import { readBests } from "../../storage/bests.ts";
import { allRows, type LapRow, lapRows, sessionRows } from "../../storage/lap_index.ts";
import { getSessions, listSessions } from "../../storage/sessions.ts";

/**
 * One lap of the list (a row of `GET /api/laps`): the response schema, and
 * through `z.output` the type, so the two cannot drift.
 */
export const lapListItemSchema = z.strictObject({
  id: z.int().min(1),
  session_id: z.int().min(1),
  /** Lap number within its session. */
  number: z.int(),
  /** The session's track name; "" while unnamed. */
  track: z.string(),
  /** The circuit's key (the slug of `track`, as bundles are stored); null while unnamed. */
  circuit: z.string().nullable(),
  car_id: z.int(),
  car_name: z.string(),
  time_ms: z.number(),
  complete: z.boolean(),
  counts_for_best: z.boolean(),
  /** The session is kept out of the bests. */
  bests_excluded: z.boolean(),
  imported: z.boolean(),
  finished_at: z.string(),
}).meta({ id: "LapListItem" });

/** One lap of the list. */
export type LapListItem = z.output<typeof lapListItemSchema>;

/** Orders of the list. */
export const LAP_ORDERS = ["recent", "time"] as const;

/** Laps listed when the query does not say. */
export const DEFAULT_LAP_LIMIT = 100;

/** Most laps one answer lists. */
export const MAX_LAP_LIMIT = 1000;

/** Most lap ids the `ids` filter takes. */
export const MAX_LAP_IDS = 100;

/** The list's filters and order, parsed. */
export interface LapListQuery {
  /** Only laps of this circuit (a slug). */
  circuit: string | null;
  car: number | null;
  complete: boolean | null;
  order: (typeof LAP_ORDERS)[number];
  limit: number;
  /** Only these laps (distinct ids); null for every lap. */
  ids: readonly number[] | null;
}

/**
 * The list's filters, each optional: `track` (a circuit name; matched by
 * slug, so case and punctuation do not matter), `car` (an id), `complete`,
 * `order` (`recent`, the default: latest finished first; `time`: fastest
 * first, laps without a time last), `limit` (1 to
 * {@linkcode MAX_LAP_LIMIT}, default {@linkcode DEFAULT_LAP_LIMIT}), `ids`
 * (1 to {@linkcode MAX_LAP_IDS} distinct lap ids: only those laps, the
 * others' rows never read; an unknown id is left out). `GET /api/laps`
 * parses its query into one (src/server/queries/lap_list_query.ts).
 */
export interface LapListInput {
  track?: string;
  car?: number;
  complete?: boolean;
  order?: (typeof LAP_ORDERS)[number];
  limit?: number;
  ids?: readonly number[];
}

/** `q` with its defaults, the circuit keyed by slug. */
export function lapListQuery(q: LapListInput): LapListQuery {
  return {
    circuit: q.track === undefined ? null : slugify(q.track),
    car: q.car ?? null,
    complete: q.complete ?? null,
    order: q.order ?? "recent",
    limit: q.limit ?? DEFAULT_LAP_LIMIT,
    ids: q.ids ?? null,
  };
}

/**
 * The laps `query` asks for, from the index rows of their sessions; with
 * `ids`, from those laps' records and their sessions alone, never the
 * whole index nor every session (the same rows: see {@linkcode lapRows}).
 */
export async function listLapsAcross(kv: Deno.Kv, query: LapListQuery): Promise<LapListItem[]> {
  const { rows, sessions } = query.ids === null
    ? await rowsOfCircuit(kv, query.circuit)
    : await rowsOfLaps(kv, query.ids);
  const items: LapListItem[] = [];
  for (const r of rows) {
    // A row whose session is gone belongs to a removal under way.
    const s = sessions.get(r.session_id);
    if (!s) continue;
    if (query.circuit !== null && circuitOf(s.track_name) !== query.circuit) continue;
    if (query.car !== null && r.car_id !== query.car) continue;
    if (query.complete !== null && r.complete !== query.complete) continue;
    items.push(itemOf(r, s));
  }
  items.sort(query.order === "time" ? byTime : byRecent);
  return items.slice(0, query.limit);
}

/** Rows to list and the sessions they may belong to. */
interface Listed {
  rows: LapRow[];
  sessions: Map<number, Session>;
}

/** Every row of circuit `circuit` (every row when null), and every session. */
async function rowsOfCircuit(kv: Deno.Kv, circuit: string | null): Promise<Listed> {
  const sessions = new Map((await listSessions(kv)).map((s) => [s.id, s]));
  if (circuit === null) return { rows: await allRows(kv), sessions };
  const rows: LapRow[] = [];
  for (const s of sessions.values()) {
    if (circuitOf(s.track_name) === circuit) rows.push(...await sessionRows(kv, s.id));
  }
  return { rows, sessions };
}

/** The rows of laps `ids` that exist, and their sessions, each read once. */
async function rowsOfLaps(kv: Deno.Kv, ids: readonly number[]): Promise<Listed> {
  const rows = await lapRows(kv, ids);
  return { rows, sessions: await getSessions(kv, rows.map((r) => r.session_id)) };
}

function itemOf(r: LapRow, s: Session): LapListItem {
  return {
    id: r.id,
    session_id: r.session_id,
    number: r.number,
    track: s.track_name,
    circuit: circuitOf(s.track_name),
    car_id: r.car_id,
    car_name: carName(r.car_id),
    time_ms: r.time_ms,
    complete: r.complete,
    counts_for_best: r.counts_for_best,
    bests_excluded: s.bests_excluded ?? false,
    imported: r.imported,
    finished_at: r.finished_at,
  };
}

function byTime(a: LapListItem, b: LapListItem): number {
  const ta = a.time_ms > 0 ? a.time_ms : Infinity;
  const tb = b.time_ms > 0 ? b.time_ms : Infinity;
  return ta === tb ? a.id - b.id : ta - tb;
}

function byRecent(a: LapListItem, b: LapListItem): number {
  if (a.finished_at !== b.finished_at) return a.finished_at < b.finished_at ? 1 : -1;
  return b.id - a.id;
}

/**
 * One circuit and car's best (a row of `GET /api/laps/bests`): the response
 * schema, and through `z.output` the type.
 */
export const bestItemSchema = z.strictObject({
  /** The track name of the best lap's session. */
  track: z.string(),
  /** The circuit's key: the slug of the track name. */
  circuit: z.string(),
  car_id: z.int(),
  car_name: z.string(),
  lap_id: z.int().min(1),
  session_id: z.int().min(1),
  time_ms: z.number(),
  /** `time_ms` minus the fastest lap of the circuit in any car (0 for that car). */
  gap_ms: z.number(),
  /** Complete laps of this circuit and car that count for best, other than the best. */
  laps_behind: z.int().min(0),
  /** Sessions holding this circuit and car's laps that count. */
  sessions: z.int().min(1),
}).meta({ id: "BestItem" });

/** One circuit and car's best (`GET /api/laps/bests`). */
export type BestItem = z.output<typeof bestItemSchema>;

/**
 * The fastest lap that counts for best of every circuit and car, by track
 * name and then time. A lap counts when it is complete and its verdict
 * counts (the span guard, for a live lap); sessions that are unnamed or
 * excluded from bests are left out. Answered from the lap index, checked
 * against the laps and sessions it names (see src/storage/bests.ts).
 */
export async function bestsAcross(kv: Deno.Kv): Promise<BestItem[]> {
  const bests = await readBests(kv);
  const outright = new Map<string, number>();
  for (const b of bests) {
    outright.set(b.circuit, Math.min(outright.get(b.circuit) ?? Infinity, b.time_ms));
  }
  return bests
    .map((b) => ({
      track: b.session.track_name,
      circuit: b.circuit,
      car_id: b.car_id,
      car_name: carName(b.car_id),
      lap_id: b.lap_id,
      session_id: b.session_id,
      time_ms: b.time_ms,
      gap_ms: b.time_ms - outright.get(b.circuit)!,
      laps_behind: b.laps - 1,
      sessions: b.sessions,
    }))
    .sort((a, b) =>
      a.circuit < b.circuit
        ? -1
        : a.circuit > b.circuit
        ? 1
        : a.time_ms - b.time_ms || a.car_id - b.car_id
    );
}
