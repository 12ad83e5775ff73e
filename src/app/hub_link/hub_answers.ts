/**
 * The hub's addresses and answers the team reference reads
 * (the hub contract of #38: `GET /api/leaderboard`, `GET /api/laps/{id}`),
 * checked before use: an answer of other rules is refused with the field
 * that broke, never half-read.
 *
 * @module
 */
import { z } from "zod";

/** `{hub}/api/leaderboard?circuit=SLUG&car=ID`, under the hub's own path when it has one. */
export function leaderboardUrl(hub: string, circuit: string, car: number): URL {
  const url = new URL("api/leaderboard", base(hub));
  url.searchParams.set("circuit", circuit);
  url.searchParams.set("car", String(car));
  return url;
}

/** `{hub}/api/laps/{id}`. */
export function lapFileUrl(hub: string, id: string): URL {
  return new URL(`api/laps/${encodeURIComponent(id)}`, base(hub));
}

/** `{hub}/api/me`: whose token this is. */
export function meUrl(hub: string): URL {
  return new URL("api/me", base(hub));
}

/**
 * The driver's name in `GET /api/me` answer `json`.
 *
 * @throws {Error} naming the field of an answer of other rules.
 */
export function meName(json: unknown): string {
  const parsed = z.object({ name: z.string().min(1) }).safeParse(json);
  if (!parsed.success) throw new Error(`the hub's /api/me: name ${parsed.error.issues[0].message}`);
  return parsed.data.name;
}

function base(hub: string): string {
  return hub.endsWith("/") ? hub : `${hub}/`;
}

const rowSchema = z.object({
  driver: z.string().min(1),
  best_ms: z.number().positive(),
  lap_id: z.union([z.string().min(1), z.int()]),
  car_id: z.int(),
});

const boardSchema = z.object({ rows: z.array(rowSchema) });

/** The fastest row of the team's leaderboard. */
export interface TopRow {
  driver: string;
  best_ms: number;
  /** The hub's lap id, as text whatever its JSON type. */
  lap_id: string;
  car_id: number;
}

/**
 * The fastest row of leaderboard answer `json` in car `car` (rows are
 * fastest first), or null when the team has no lap there.
 *
 * @throws {Error} naming the field of an answer that is not a leaderboard.
 */
export function topRow(json: unknown, car: number): TopRow | null {
  const parsed = boardSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`the hub's leaderboard: ${issue.path.join(".") || "$"} ${issue.message}`);
  }
  const row = parsed.data.rows.find((r) => r.car_id === car);
  return row ? { ...row, lap_id: String(row.lap_id) } : null;
}
