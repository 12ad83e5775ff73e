/**
 * Stored sessions and their laps: what both faces list and show, and the
 * one change a driver makes to a session by hand (naming its track).
 *
 * @module
 */
import { NotFound } from "../core/errors.ts";
import type { Lap, LapSummary } from "../core/laps/lap.ts";
import type { Session } from "../core/laps/session.ts";
import { getSession, listSessions } from "../storage/sessions.ts";
import { getLap, getLapSummary, listLaps } from "../storage/laps.ts";
import type { AppDeps } from "./deps.ts";
import type { LiveService } from "./live.ts";
import { validTrackName } from "./request_body.ts";

/** Session and lap reads, and session naming. */
export class SessionService {
  readonly #deps: Pick<AppDeps, "kv" | "bus">;
  readonly #live: Pick<LiveService, "updateSession">;

  /** Reads from `deps.kv`; a rename goes through `live`, which keeps its session's copy. */
  constructor(deps: Pick<AppDeps, "kv" | "bus">, live: Pick<LiveService, "updateSession">) {
    this.#deps = deps;
    this.#live = live;
  }

  /** Every session, newest first. */
  list(): Promise<Session[]> {
    return listSessions(this.#deps.kv);
  }

  /** Session `id`; {@linkcode NotFound} when it does not exist. */
  async get(id: number): Promise<Session> {
    const s = await getSession(this.#deps.kv, id);
    if (!s) throw new NotFound(`session ${id} not found`);
    return s;
  }

  /** The laps of session `id`, oldest first; {@linkcode NotFound} for an unknown session. */
  async laps(id: number): Promise<LapSummary[]> {
    await this.get(id);
    return listLaps(this.#deps.kv, id);
  }

  /** Lap `id` with its samples; {@linkcode NotFound} when it does not exist. */
  async lap(id: number): Promise<Lap> {
    const l = await getLap(this.#deps.kv, id);
    if (!l) throw new NotFound(`lap ${id} not found`);
    return l;
  }

  /** Lap `id` without samples; {@linkcode NotFound} when it does not exist. */
  async lapSummary(id: number): Promise<LapSummary> {
    const l = await getLapSummary(this.#deps.kv, id);
    if (!l) throw new NotFound(`lap ${id} not found`);
    return l;
  }

  /**
   * Names session `id` after the circuit a driver typed: the name is
   * validated with {@linkcode validTrackName}, stored trimmed with track
   * source `user`, and the live session's copy follows when `id` is the
   * live session. Returns the updated session. Throws BadRequest for a bad
   * name (nothing is written) and {@linkcode NotFound} for an unknown
   * session. Announces `{type: "session", reason: "renamed"}`, so every face
   * (TUI, SSE clients) shows the new name.
   */
  async rename(id: number, name: unknown): Promise<Session> {
    const track = validTrackName(name);
    const updated = await this.#live.updateSession(
      id,
      (s) => ({ ...s, track_name: track, track_source: "user" }),
    );
    if (!updated) throw new NotFound(`session ${id} not found`);
    this.#deps.bus.emit({ type: "session", session: updated, reason: "renamed" });
    return updated;
  }
}
