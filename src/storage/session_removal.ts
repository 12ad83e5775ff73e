/**
 * Removing a session and everything of its laps. A session may hold more
 * laps than one commit can delete, so removal is in steps, each atomic:
 *
 * 1. One commit deletes the session record, takes its laps out of the lap
 *    index's bests and sets the marker `["session_removal", id]`. From here
 *    the session is gone for every reader: no listing, no bests, no new lap.
 * 2. Commits of at most {@linkcode LAPS_PER_COMMIT} laps delete their
 *    records and index rows.
 * 3. Each lap's sample chunks are deleted.
 * 4. The marker is deleted.
 *
 * A crash after step 1 leaves the marker; {@linkcode finishSessionRemovals}
 * runs steps 2 to 4 for every marker at start-up, before anything is
 * served, and chunks left by a crash in step 3 are also what the orphan
 * sweep of laps.ts removes.
 *
 * @module
 */
import type { Session } from "../core/laps/session.ts";
import { commitOrThrow, deleteBlob, withLockRetry } from "./blob.ts";
import { indexWrite, rankingCircuit, rowKey, sessionRows, stageBests } from "./lap_index.ts";
import { normalSession, sessionKey } from "./sessions.ts";
import { lapKey, samplesPrefix } from "./stored_lap.ts";

/** Laps whose record and row one commit deletes: 800 deletions, under the 1,000 a commit allows. */
export const LAPS_PER_COMMIT = 400;

/** Key of the marker of a removal under way. */
export const removalKey = (id: number): Deno.KvKey => ["session_removal", id];

/**
 * Removes session `id` with its laps' records, index rows, bests shares and
 * sample chunks. Returns the session as it was, or null when none exists.
 * The caller refuses sessions still being recorded.
 */
export async function removeSession(kv: Deno.Kv, id: number): Promise<Session | null> {
  const removed = await indexWrite(kv, async () => {
    for (let attempt = 0; attempt < 100; attempt++) {
      const current = await kv.get<Session>(sessionKey(id));
      if (!current.value) return null;
      const session = normalSession(current.value);
      const rows = await sessionRows(kv, id);
      const op = kv.atomic().check(current).delete(sessionKey(id)).set(removalKey(id), true);
      await stageBests(kv, op, {
        session: id,
        from: rankingCircuit(session),
        to: null,
        rows: [],
        cars: rows.map((r) => r.car_id),
      });
      const res = await withLockRetry(() => op.commit());
      if (res.ok) return session;
    }
    throw new Error(`session ${id} is too contended to remove`);
  });
  if (removed) await finishRemoval(kv, id);
  return removed;
}

/** Steps 2 to 4 of a removal whose first step committed. */
async function finishRemoval(kv: Deno.Kv, id: number): Promise<void> {
  const laps: number[] = [];
  for await (const e of kv.list({ prefix: ["session_lap", id] })) laps.push(e.key[2] as number);
  for (let i = 0; i < laps.length; i += LAPS_PER_COMMIT) {
    const op = kv.atomic();
    for (const lap of laps.slice(i, i + LAPS_PER_COMMIT)) {
      op.delete(lapKey(lap)).delete(rowKey(id, lap));
    }
    await commitOrThrow(op);
  }
  for (const lap of laps) await deleteBlob(kv, samplesPrefix(lap));
  await withLockRetry(() => kv.delete(removalKey(id)));
}

/**
 * Finishes every removal a crash interrupted (see the module's steps).
 * Run at start-up; returns how many were finished.
 */
export async function finishSessionRemovals(kv: Deno.Kv): Promise<number> {
  const ids: number[] = [];
  for await (const e of kv.list({ prefix: ["session_removal"] })) ids.push(e.key[1] as number);
  for (const id of ids) await finishRemoval(kv, id);
  return ids.length;
}
