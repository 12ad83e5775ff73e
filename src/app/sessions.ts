/**
 * Session and lap queries: what both faces show.
 *
 * @module
 */
import { NotFound } from "../core/errors.ts";
import type { Lap, LapSummary } from "../core/laps/lap.ts";
import type { Session } from "../core/laps/session.ts";
import { getSession, listSessions } from "../storage/sessions.ts";
import { getLap, getLapSummary, listLaps } from "../storage/laps.ts";
import type { App } from "./context.ts";

/** Every session, newest first. */
export function sessions(app: App): Promise<Session[]> {
  return listSessions(app.kv);
}

/** Session `id`; {@linkcode NotFound} when it does not exist. */
export async function session(app: App, id: number): Promise<Session> {
  const s = await getSession(app.kv, id);
  if (!s) throw new NotFound(`session ${id} not found`);
  return s;
}

/** The laps of session `id`, oldest first; {@linkcode NotFound} for an unknown session. */
export async function sessionLaps(app: App, id: number): Promise<LapSummary[]> {
  await session(app, id);
  return listLaps(app.kv, id);
}

/** Lap `id` with its samples; {@linkcode NotFound} when it does not exist. */
export async function lap(app: App, id: number): Promise<Lap> {
  const l = await getLap(app.kv, id);
  if (!l) throw new NotFound(`lap ${id} not found`);
  return l;
}

/** Lap `id` without samples; {@linkcode NotFound} when it does not exist. */
export async function lapSummary(app: App, id: number): Promise<LapSummary> {
  const l = await getLapSummary(app.kv, id);
  if (!l) throw new NotFound(`lap ${id} not found`);
  return l;
}
