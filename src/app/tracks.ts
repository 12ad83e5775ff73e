/**
 * Track identification use cases (SPEC.md 2.4, 3, 4.8): signatures made
 * when a driver names a lap, naming unlabelled sessions after the fact, and
 * the live hook that names a new session from its first completed lap. A
 * session is named only on a confident match; otherwise it stays unnamed.
 *
 * @module
 */
import { BadRequest, Conflict, NotFound } from "../core/errors.ts";
import { type Identification, identifyTrace } from "../core/identify/identify.ts";
import { type LapTrace, signatureOf } from "../core/identify/signature.ts";
import type { LapSummary } from "../core/laps/lap.ts";
import { lackText } from "../core/laps/coverage.ts";
import type { Session, TrackSource } from "../core/laps/session.ts";
import { listBundleHeads } from "../storage/bundles.ts";
import { getLap, listLaps } from "../storage/laps.ts";
import { listSessions, updateSession } from "../storage/sessions.ts";
import {
  createSignature,
  deleteSignature,
  hasSignatures,
  listSignatures,
  type TrackSignature,
} from "../storage/signatures.ts";
import type { App } from "./context.ts";
import { fingerprintsOf } from "./fingerprints.ts";
import { renameSession, validTrackName } from "./session_admin.ts";

/** What POST /api/tracks answers. */
export interface CreateTrackResult {
  signature: TrackSignature;
  /** Sessions named: the lap's own, and the live one when it was unnamed. */
  named_sessions: number[];
}

/** What POST /api/tracks/identify answers (REFERENCE.md 5.7). */
export interface IdentifyResult {
  /** Unlabelled sessions that had a lap to try. */
  checked: number;
  /** Sessions named. */
  identified: number;
  /** Sessions named per circuit name, names sorted. */
  tracks: Record<string, number>;
}

/** Laps shorter than this many ticks (2 s) are not tried by identify. */
const MIN_IDENTIFY_TICKS = 120;

function positiveId(value: unknown, path: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    const message = "must be a positive integer";
    throw new BadRequest(`${path.slice(2)} ${message}`, [{ path, message }]);
  }
  return value;
}

/**
 * Makes a signature from lap `lap_id` under `name`, stores it, names the
 * lap's session, and back-fills the live session's name when that session
 * is unnamed (REFERENCE.md decision 5). Returns the signature and the
 * sessions named.
 *
 * @throws {BadRequest} for a body that is not `{name, lap_id}`, a bad name,
 *   or a lap without positions; nothing is written then.
 * @throws {NotFound} when the lap does not exist.
 * @throws {Conflict} when the lap is incomplete (packets lost beyond the
 *   filled short gaps): a signature is made from a complete lap only.
 */
export async function createTrack(app: App, body: unknown): Promise<CreateTrackResult> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new BadRequest("body must be an object {name, lap_id}", [
      { path: "$", message: "must be an object with name and lap_id" },
    ]);
  }
  const raw = body as Record<string, unknown>;
  const name = validTrackName(raw.name);
  const lapId = positiveId(raw.lap_id, "$.lap_id");
  const lap = await getLap(app.kv, lapId);
  if (!lap) throw new NotFound(`lap ${lapId} not found`);
  if (!lap.complete) {
    throw new Conflict(
      `lap ${lapId} is incomplete (${lackText(lap, lap.total_ticks)}): ` +
        "a track signature is made from a complete lap only",
    );
  }
  const shape = signatureOf(lap.samples);
  if (shape === null) {
    throw new BadRequest("lap has no position data", [
      { path: "$.lap_id", message: "the lap has no position samples to make a signature from" },
    ]);
  }
  const signature = await createSignature(app.kv, {
    name,
    ...shape,
    created_at: app.now().toISOString(),
    provenance: "user",
    lap_id: lap.id,
    session_id: lap.session_id,
  });
  const named: number[] = [];
  try {
    await renameSession(app, lap.session_id, name);
    named.push(lap.session_id);
  } catch (err) {
    // The lap outlived its session (deleted meanwhile): the signature still stands.
    if (!(err instanceof NotFound)) throw err;
  }
  const live = app.live.session;
  if (live && live.id !== lap.session_id && live.track_name === "") {
    await renameSession(app, live.id, name);
    named.push(live.id);
  }
  return { signature, named_sessions: named };
}

/** Every stored signature, by name, then oldest first. */
export async function listTracks(app: App): Promise<TrackSignature[]> {
  return (await listSignatures(app.kv)).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id
  );
}

/**
 * Deletes signature `id`. Sessions keep their names; later laps are no
 * longer matched by this signature (a surveyed circuit still matches by
 * its bundle).
 *
 * @throws {NotFound} when no signature has that id.
 */
export async function deleteTrack(app: App, id: number): Promise<void> {
  if (!(await deleteSignature(app.kv, id))) throw new NotFound(`track signature ${id} not found`);
}

/**
 * Identifies `trace` against the stored signatures (oldest first; the first
 * that passes the four gates wins) and then the bundles' fingerprints.
 * Null when neither matches confidently.
 */
export async function identifyLap(app: App, trace: LapTrace): Promise<Identification | null> {
  // Fingerprints are loaded only when no signature matched.
  const bySignature = identifyTrace(trace, await listSignatures(app.kv), []);
  if (bySignature) return bySignature;
  return identifyTrace(trace, [], await fingerprintsOf(app).candidates());
}

/**
 * Names session `id` after `found` only if it is still unnamed, so a name a
 * driver set meanwhile is never overwritten. Returns the updated session,
 * or null when it was already named or is gone.
 */
async function nameIfUnnamed(
  app: App,
  id: number,
  name: string,
  source: TrackSource,
): Promise<Session | null> {
  let changed = false;
  const updated = await updateSession(app.kv, id, (s) => {
    changed = s.track_name === "";
    return changed ? { ...s, track_name: name, track_source: source } : s;
  });
  return changed ? updated : null;
}

/**
 * The lap identify tries for a session: the shortest full lap, else the
 * longest partial one. Incomplete laps are never tried: a hole in the path
 * would match, or fail to match, for the wrong reason.
 */
function lapToTry(laps: readonly LapSummary[]): LapSummary | null {
  const eligible = laps.filter((l) => l.complete && l.total_ticks >= MIN_IDENTIFY_TICKS);
  const full = eligible.filter((l) => l.counts_for_best);
  if (full.length) return full.reduce((a, b) => (b.total_ticks < a.total_ticks ? b : a));
  if (eligible.length) return eligible.reduce((a, b) => (b.total_ticks > a.total_ticks ? b : a));
  return null;
}

/**
 * Tries every unlabelled session, newest first, with its shortest full lap
 * (SPEC.md 4.8.2.6): signatures first, then bundles. Names those that match
 * (announcing each on the bus) and leaves the rest alone.
 *
 * @throws {Conflict} when no signature and no bundle is stored: nothing to
 *   match against.
 */
export async function identifyUnlabelled(app: App): Promise<IdentifyResult> {
  if (!(await hasSignatures(app.kv)) && (await listBundleHeads(app.kv)).length === 0) {
    throw new Conflict("no circuits are known yet — nothing to match against");
  }
  const result: IdentifyResult = { checked: 0, identified: 0, tracks: {} };
  const tally = new Map<string, number>();
  for (const session of await listSessions(app.kv)) {
    if (session.track_name !== "") continue;
    const chosen = lapToTry(await listLaps(app.kv, session.id));
    if (!chosen) continue;
    const lap = await getLap(app.kv, chosen.id);
    if (!lap) continue;
    result.checked++;
    const found = await identifyLap(app, lap.samples);
    if (!found) continue;
    const updated = await nameIfUnnamed(app, session.id, found.name, found.by);
    if (!updated) continue;
    result.identified++;
    tally.set(found.name, (tally.get(found.name) ?? 0) + 1);
    if (app.live.session?.id === session.id) {
      await app.live.flush();
      await app.live.refresh();
    }
    app.bus.emit({ type: "session", session: updated, reason: "identified" });
  }
  for (const name of [...tally.keys()].sort()) result.tracks[name] = tally.get(name)!;
  return result;
}

/**
 * Installs live identification on `app`: after each stored live lap of a
 * session that is still unnamed, the lap is matched (signatures, then
 * bundles) and, on a confident match, the session is named and a `session`
 * event with reason "identified" is announced before the lap's own event.
 * An unsure lap leaves the session unnamed, and the next lap tries again.
 *
 * While a labelled survey runs, the driver has said which circuit this is:
 * the session takes the survey's label (track source `user`, reason
 * "surveyed") without matching. Matching then would race the survey's own
 * autosaves, naming the session from the bundle or not depending on timing.
 */
export function installTrackIdentification(app: App): void {
  fingerprintsOf(app);
  app.live.onLap(async (summary, session) => {
    if (session.track_name !== "") return;
    const naming = await liveName(app, summary);
    if (!naming) return;
    const updated = await nameIfUnnamed(app, session.id, naming.name, naming.source);
    if (!updated) return;
    app.bus.emit({ type: "session", session: updated, reason: naming.reason });
    return updated;
  });
}

/**
 * The name a stored live lap gives its session: the survey's label, else a
 * match of a complete lap; or null (an incomplete lap is not matched).
 */
async function liveName(
  app: App,
  summary: LapSummary,
): Promise<{ name: string; source: TrackSource; reason: string } | null> {
  const surveyed = app.survey.running ? app.survey.status().track : "";
  if (surveyed !== "") return { name: surveyed, source: "user", reason: "surveyed" };
  if (!summary.complete) return null;
  const lap = await getLap(app.kv, summary.id);
  if (!lap) return null;
  const found = await identifyLap(app, lap.samples);
  return found && { name: found.name, source: found.by, reason: "identified" };
}
