/**
 * Stored sessions and their laps: what both faces list and show, the laps
 * across sessions and their bests, and the changes a driver makes by hand
 * (naming a session's track, notes, keeping it out of bests, deleting a lap
 * or a session).
 *
 * @module
 */
import { z } from "zod";
import { Conflict, NotFound, StoredUnreadable } from "../../core/errors.ts";
import type { Lap, LapSummary } from "../../core/laps/lap.ts";
import { type Session, sessionSchema, touchSession } from "../../core/laps/session.ts";
import { getSession, scanSessions, storedSessionFault } from "../../storage/sessions.ts";
import { deleteLap, getLap, getLapSummary, listLaps } from "../../storage/laps.ts";
import { removeSession } from "../../storage/session_removal.ts";
import type { AppDeps } from "../deps.ts";
import {
  type BestItem,
  bestsAcross,
  type LapListInput,
  type LapListItem,
  lapListQuery,
  listLapsAcross,
} from "./lap_listing.ts";
import type { LiveService } from "../live/live.ts";
import { validTrackName } from "../request_body.ts";
import type { SessionPatch } from "./session_patch.ts";

/** What a lap deletion did (`DELETE /api/laps/{id}`): the response schema. */
export const lapDeletionSchema = z.strictObject({
  id: z.int().min(1),
  deleted: z.literal(true),
  /** The lap's session as the deletion left it (lap count, best). */
  session: sessionSchema,
});

/** What a lap deletion did. */
export type LapDeletion = z.output<typeof lapDeletionSchema>;

/** What a session deletion did (`DELETE /api/sessions/{id}`): the response schema. */
export const sessionDeletionSchema = z.strictObject({
  id: z.int().min(1),
  deleted: z.literal(true),
  /** Laps deleted with it. */
  laps: z.int().min(0),
});

/** What a session deletion did. */
export type SessionDeletion = z.output<typeof sessionDeletionSchema>;

/** Session and lap reads, laps across sessions, and a driver's changes to sessions and laps. */
export class SessionService {
  readonly #deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">;
  readonly #live: Pick<LiveService, "updateSession" | "session">;

  /**
   * Reads from `deps.kv`; a change goes through `live`, which keeps its
   * session's copy, and deletions refuse `live`'s session.
   */
  constructor(
    deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">,
    live: Pick<LiveService, "updateSession" | "session">,
  ) {
    this.#deps = deps;
    this.#live = live;
  }

  /** Every readable session, newest first. */
  async list(): Promise<Session[]> {
    return (await this.listing()).sessions;
  }

  /**
   * {@linkcode list}, and the ids of stored sessions it left out because
   * they cannot be read, each with why (reported to the log as well).
   */
  async listing(): Promise<{ sessions: Session[]; unreadable: { id: string; reason: string }[] }> {
    const listed = await scanSessions(this.#deps.kv);
    for (const u of listed.unreadable) {
      this.#deps.log.warn(`session ${u.id} left out of the list: ${u.reason}`);
    }
    return listed;
  }

  /**
   * Session `id`; {@linkcode NotFound} when it does not exist,
   * {@linkcode StoredUnreadable} naming it when its record cannot be read.
   */
  async get(id: number): Promise<Session> {
    const s = await getSession(this.#deps.kv, id);
    if (s) return s;
    const fault = await storedSessionFault(this.#deps.kv, id);
    if (fault !== null) throw new StoredUnreadable(`stored session ${id} is unreadable: ${fault}`);
    throw new NotFound(`session ${id} not found`);
  }

  /** The laps of session `id`, oldest first; {@linkcode NotFound} for an unknown session. */
  async laps(id: number): Promise<LapSummary[]> {
    await this.get(id);
    return listLaps(this.#deps.kv, id);
  }

  /**
   * Lap `id` with its samples; {@linkcode NotFound} when it does not exist
   * (or its session is being removed).
   */
  async lap(id: number): Promise<Lap> {
    const l = await getLap(this.#deps.kv, id);
    if (!l || !await getSession(this.#deps.kv, l.session_id)) {
      throw new NotFound(`lap ${id} not found`);
    }
    return l;
  }

  /** Lap `id` without samples; {@linkcode NotFound} when it does not exist. */
  async lapSummary(id: number): Promise<LapSummary> {
    const l = await getLapSummary(this.#deps.kv, id);
    if (!l) throw new NotFound(`lap ${id} not found`);
    return l;
  }

  /**
   * Names session `id` after the circuit a driver typed (a string: callers
   * hand typed text, not a body): the name is held to the track-name rule by
   * {@linkcode validTrackName}, stored trimmed with track
   * source `user`, and the live session's copy follows when `id` is the
   * live session. Returns the updated session. Throws BadRequest for a bad
   * name (nothing is written) and {@linkcode NotFound} for an unknown
   * session. Announces `{type: "session", reason: "renamed"}`, so every face
   * (TUI, SSE clients) shows the new name.
   */
  async rename(id: number, name: string): Promise<Session> {
    const track = validTrackName(name);
    const at = this.#deps.now().toISOString();
    const updated = await this.#live.updateSession(
      id,
      (s) => touchSession({ ...s, track_name: track, track_source: "user" }, at),
    );
    if (!updated) throw new NotFound(`session ${id} not found`);
    this.#deps.bus.emit({ type: "session", session: updated, reason: "renamed" });
    return updated;
  }

  /**
   * Changes session `id` by `patch`, already parsed by `sessionPatchSchema`
   * (session_patch.ts; the route parses the body, so the name is trimmed and
   * every field holds its rule): its
   * track name (source `user`), notes, exclusion from bests, or several at
   * once, in one write that also moves its laps in the bests. The live
   * session's copy follows. Announces `{type: "session"}` with reason
   * `renamed` when the name was given, else `edited`.
   *
   * @throws {NotFound} for an unknown session.
   */
  async update(id: number, patch: SessionPatch): Promise<Session> {
    const at = this.#deps.now().toISOString();
    const updated = await this.#live.updateSession(id, (s) =>
      touchSession({
        ...s,
        ...(patch.name === undefined ? {} : { track_name: patch.name, track_source: "user" }),
        ...(patch.notes === undefined ? {} : { notes: patch.notes }),
        ...(patch.bests_excluded === undefined ? {} : { bests_excluded: patch.bests_excluded }),
      }, at));
    if (!updated) throw new NotFound(`session ${id} not found`);
    const reason = patch.name === undefined ? "edited" : "renamed";
    this.#deps.bus.emit({ type: "session", session: updated, reason });
    return updated;
  }

  /**
   * Deletes session `id` with all of its laps: records, samples, index
   * entries and bests (src/storage/session_removal.ts). Announces
   * `{type: "session", reason: "deleted"}` with the session as it was.
   *
   * @throws {NotFound} for an unknown session; {@linkcode Conflict} for the
   *   live session, whose laps are still being recorded.
   */
  async remove(id: number): Promise<SessionDeletion> {
    if (this.#live.session?.id === id) {
      throw new Conflict(`session ${id} is being recorded; delete it once its drive has ended`);
    }
    const removed = await removeSession(this.#deps.kv, id);
    if (!removed) throw new NotFound(`session ${id} not found`);
    this.#deps.bus.emit({ type: "session", session: removed, reason: "deleted" });
    return { id, deleted: true, laps: removed.lap_count };
  }

  /**
   * Deletes lap `id`: its record, samples and index entries, with its
   * session's lap count and best, its siblings' span-guard verdicts and the
   * bests updated in the same commit. Announces `{type: "session", reason:
   * "lap_deleted"}` with the session as it was left.
   *
   * @throws {NotFound} for an unknown lap; {@linkcode Conflict} for a lap
   *   of the live session (the recorder judges its laps as they come).
   */
  async deleteLap(id: number): Promise<LapDeletion> {
    const lap = await this.lapSummary(id);
    if (this.#live.session?.id === lap.session_id) {
      throw new Conflict(
        `lap ${id} belongs to session ${lap.session_id}, which is being recorded; ` +
          `delete it once its drive has ended`,
      );
    }
    const deleted = await deleteLap(this.#deps.kv, id);
    if (!deleted) throw new NotFound(`lap ${id} not found`);
    this.#deps.bus.emit({ type: "session", session: deleted.session, reason: "lap_deleted" });
    return { id, deleted: true, session: deleted.session };
  }

  /**
   * Laps across sessions, filtered and ordered by `query` (see
   * {@linkcode LapListInput}); answered from the lap index, or with `ids` from those laps' records.
   */
  listAcross(query: LapListInput = {}): Promise<LapListItem[]> {
    return listLapsAcross(this.#deps.kv, lapListQuery(query));
  }

  /**
   * The fastest lap of every circuit and car; see {@linkcode bestsAcross}.
   */
  bests(): Promise<BestItem[]> {
    return bestsAcross(this.#deps.kv);
  }
}
