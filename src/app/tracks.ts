/**
 * Track identification (SPEC.md 2.4, 3, 4.8): signatures made when a driver
 * names a lap, naming unlabelled sessions after the fact, and the live lap
 * hook that names a new session from its first completed lap. A session is
 * named only on a confident match; otherwise it stays unnamed. The service
 * owns the fingerprint cache the bundle matches are made from.
 *
 * @module
 */
import { BadRequest, Conflict, NotFound } from "../core/errors.ts";
import { type Identification, identifyTrace } from "../core/identify/identify.ts";
import { type LapTrace, signatureOf } from "../core/identify/signature.ts";
import type { Lap, LapSummary } from "../core/laps/lap.ts";
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
import type { AppDeps } from "./deps.ts";
import { FingerprintCache } from "./fingerprints.ts";
import type { LiveService } from "./live.ts";
import { validTrackName } from "./request_body.ts";
import type { SessionService } from "./sessions.ts";
import type { SurveyService } from "./survey.ts";

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

/** A session named by identification, and the circuit. */
export interface NamedSession {
  session: number;
  track: string;
}

/** What the track service calls on the other services. */
export interface TrackServices {
  /** The live session, named along with a lap's own; renamed through it so its copy follows. */
  live: Pick<LiveService, "session" | "updateSession">;
  /** A running labelled survey names the live session without matching. */
  survey: Pick<SurveyService, "running" | "status">;
  /** Naming a session by hand. */
  sessions: Pick<SessionService, "rename">;
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

/** Track signatures and identification; owns the fingerprint cache. */
export class TrackService {
  readonly #deps: Pick<AppDeps, "kv" | "bus" | "now">;
  readonly #services: TrackServices;
  /** Fingerprints of the stored bundles, one per bundle generation. */
  readonly fingerprints: FingerprintCache;

  /**
   * A service over `deps.kv`. Its fingerprint cache follows bundle changes
   * once subscribed (`fingerprints.listen(bus)`, done by createApp).
   */
  constructor(deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">, services: TrackServices) {
    this.#deps = deps;
    this.#services = services;
    this.fingerprints = new FingerprintCache(deps.kv, deps.log);
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
  async create(body: unknown): Promise<CreateTrackResult> {
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new BadRequest("body must be an object {name, lap_id}", [
        { path: "$", message: "must be an object with name and lap_id" },
      ]);
    }
    const raw = body as Record<string, unknown>;
    const name = validTrackName(raw.name);
    const lapId = positiveId(raw.lap_id, "$.lap_id");
    const { kv, now } = this.#deps;
    const lap = await getLap(kv, lapId);
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
    const signature = await createSignature(kv, {
      name,
      ...shape,
      created_at: now().toISOString(),
      provenance: "user",
      lap_id: lap.id,
      session_id: lap.session_id,
    });
    const { sessions, live } = this.#services;
    const named: number[] = [];
    try {
      await sessions.rename(lap.session_id, name);
      named.push(lap.session_id);
    } catch (err) {
      // The lap outlived its session (deleted meanwhile): the signature still stands.
      if (!(err instanceof NotFound)) throw err;
    }
    const current = live.session;
    if (current && current.id !== lap.session_id && current.track_name === "") {
      await sessions.rename(current.id, name);
      named.push(current.id);
    }
    return { signature, named_sessions: named };
  }

  /** Every stored signature, by name, then oldest first. */
  async list(): Promise<TrackSignature[]> {
    return (await listSignatures(this.#deps.kv)).sort((a, b) =>
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
  async delete(id: number): Promise<void> {
    if (!(await deleteSignature(this.#deps.kv, id))) {
      throw new NotFound(`track signature ${id} not found`);
    }
  }

  /**
   * Identifies `trace` against the stored signatures (oldest first; the
   * first that passes the four gates wins) and then the bundles'
   * fingerprints. Null when neither matches confidently.
   */
  async identifyLap(trace: LapTrace): Promise<Identification | null> {
    // Fingerprints are loaded only when no signature matched.
    const bySignature = identifyTrace(trace, await listSignatures(this.#deps.kv), []);
    if (bySignature) return bySignature;
    return identifyTrace(trace, [], await this.fingerprints.candidates());
  }

  /**
   * Tries every unlabelled session, newest first, with its shortest full lap
   * (SPEC.md 4.8.2.6): signatures first, then bundles. Names those that
   * match (announcing each on the bus) and leaves the rest alone.
   *
   * @throws {Conflict} when no signature and no bundle is stored: nothing to
   *   match against.
   */
  async identifyUnlabelled(): Promise<IdentifyResult> {
    if (!(await this.#knowsCircuits())) {
      throw new Conflict("no circuits are known yet — nothing to match against");
    }
    const unnamed = (await listSessions(this.#deps.kv)).filter((s) => s.track_name === "");
    const { checked, named } = await this.#identify(unnamed.map((s) => s.id));
    const tally = new Map<string, number>();
    for (const n of named) tally.set(n.track, (tally.get(n.track) ?? 0) + 1);
    const result: IdentifyResult = { checked, identified: named.length, tracks: {} };
    for (const name of [...tally.keys()].sort()) result.tracks[name] = tally.get(name)!;
    return result;
  }

  /**
   * Names each of sessions `ids` that is still unnamed after its shortest
   * full lap (else its longest partial one), as identify would, announcing
   * each. Sessions not in `ids` are never touched; with no circuit known,
   * nothing is tried.
   */
  async identifySessions(ids: readonly number[]): Promise<NamedSession[]> {
    if (ids.length === 0 || !(await this.#knowsCircuits())) return [];
    return (await this.#identify(ids)).named;
  }

  /**
   * The live lap hook: names a live session that is still unnamed from its
   * newest stored lap, announcing a `session` event (reason "identified")
   * before the lap's own event; an unsure or incomplete lap leaves it
   * unnamed, and the next lap tries again.
   *
   * While a labelled survey runs, the driver has said which circuit this
   * is: the session takes the survey's label (track source `user`, reason
   * "surveyed") without matching. Matching then would race the survey's own
   * autosaves, naming the session from the bundle or not depending on timing.
   */
  async nameLiveSession(lap: Lap, session: Session): Promise<Session | void> {
    if (session.track_name !== "") return;
    const naming = await this.#liveName(lap);
    if (!naming) return;
    const updated = await this.#nameIfUnnamed(session.id, naming.name, naming.source, false);
    if (!updated) return;
    this.#deps.bus.emit({ type: "session", session: updated, reason: naming.reason });
    return updated;
  }

  async #knowsCircuits(): Promise<boolean> {
    const { kv } = this.#deps;
    return (await hasSignatures(kv)) || (await listBundleHeads(kv)).length > 0;
  }

  /** Tries each of `ids` in order; see {@linkcode identifySessions}. */
  async #identify(ids: readonly number[]): Promise<{ checked: number; named: NamedSession[] }> {
    const { kv, bus } = this.#deps;
    let checked = 0;
    const named: NamedSession[] = [];
    for (const id of ids) {
      const chosen = lapToTry(await listLaps(kv, id));
      if (!chosen) continue;
      const lap = await getLap(kv, chosen.id);
      if (!lap) continue;
      checked++;
      const found = await this.identifyLap(lap.samples);
      if (!found) continue;
      const updated = await this.#nameIfUnnamed(id, found.name, found.by, true);
      if (!updated) continue;
      named.push({ session: id, track: found.name });
      bus.emit({ type: "session", session: updated, reason: "identified" });
    }
    return { checked, named };
  }

  /**
   * Names session `id` after `name` only if it is still unnamed, so a name a
   * driver set meanwhile is never overwritten. Returns the updated session,
   * or null when it was already named or is gone. With `followLive` the
   * change goes through the live service, so its copy follows; the lap hook,
   * which runs inside the live service's queue, writes the store directly
   * and hands the live service what it wrote.
   */
  async #nameIfUnnamed(
    id: number,
    name: string,
    source: TrackSource,
    followLive: boolean,
  ): Promise<Session | null> {
    let changed = false;
    const edit = (s: Session): Session => {
      changed = s.track_name === "";
      return changed ? { ...s, track_name: name, track_source: source } : s;
    };
    const updated = followLive
      ? await this.#services.live.updateSession(id, edit)
      : await updateSession(this.#deps.kv, id, edit);
    return changed ? updated : null;
  }

  /**
   * The name a stored live lap gives its session: the survey's label, else a
   * match of a complete lap; or null (an incomplete lap is not matched).
   */
  async #liveName(
    lap: Lap,
  ): Promise<{ name: string; source: TrackSource; reason: string } | null> {
    const survey = this.#services.survey;
    const surveyed = survey.running ? survey.status().track : "";
    if (surveyed !== "") return { name: surveyed, source: "user", reason: "surveyed" };
    if (!lap.complete) return null;
    const found = await this.identifyLap(lap.samples);
    return found && { name: found.name, source: found.by, reason: "identified" };
  }
}

/** @deprecated transitional: use app.tracks.identifyUnlabelled */
export function identifyUnlabelled(app: { tracks: TrackService }): Promise<IdentifyResult> {
  return app.tracks.identifyUnlabelled();
}
