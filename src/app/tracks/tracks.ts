/**
 * Track identification (SPEC.md 2.4, 3, 4.8): signatures made when a driver
 * names a lap, naming unlabelled sessions after the fact, naming imports as
 * live recording would have (import_naming.ts), the live lap hook that
 * names a new session from its completed laps, and the live naming
 * from the reference lines during its first lap. The three kinds of
 * knowledge rank in SPEC.md section 1's order, with the reference lines the
 * project ships third: a user's signature, then a surveyed bundle, then a
 * reference line; and a name the user typed always wins. A session is named
 * only on a confident match; otherwise it stays unnamed. The service owns
 * the fingerprint cache the bundle matches are made from.
 *
 * @module
 */
import { z } from "zod";
import { BadRequest, Conflict, NotFound } from "../../core/errors.ts";
import { explainIdentification, type IdentifyExplanation } from "../../core/identify/explain.ts";
import { type Identification, identifyTrace } from "../../core/identify/identify.ts";
import {
  type AnyIdentification,
  identifyWithReferences,
} from "../../core/identify/identify_with_references.ts";
import { type ReferenceIndex, withRoadWidths } from "../../core/identify/reference_index.ts";
import type { GeometryService } from "../bundles/geometry.ts";
import { SurveyedWidths } from "../survey/surveyed_widths.ts";
import type { ReferenceMatch } from "../../core/identify/reference_match.ts";
import { type LapTrace, signatureOf } from "../../core/identify/signature.ts";
import { lapPath } from "../../core/identify/signature_path.ts";
import type { Lap, LapSummary } from "../../core/laps/lap.ts";
import { lackText } from "../../core/laps/coverage.ts";
import { type Session, touchSession, type TrackSource } from "../../core/laps/session.ts";
import { getLap, listLaps } from "../../storage/laps.ts";
import { getSession, listSessions, updateSession } from "../../storage/sessions.ts";
import { createSignature, deleteSignature, listSignatures } from "../../storage/signatures.ts";
import type { AppDeps } from "../deps.ts";
export type { ReferenceEntry, SignatureEntry, TrackEntry } from "./track_entries.ts";
import { FingerprintCache } from "./fingerprints.ts";
import { nameLaps, type Naming, type NamingLap } from "./import_naming.ts";
import type { LiveService } from "../live/live.ts";
import { LiveNaming, WARM_BUDGET_MS, warmDefaultIndex } from "../live/live_naming.ts";
import { parseFields } from "../request_body.ts";
import { type CreateTrackInput, createTrackSchema } from "./track_request.ts";
import {
  referenceEntry,
  type SignatureEntry,
  signatureEntry,
  signatureEntrySchema,
  type TrackEntry,
} from "./track_entries.ts";
import type { SessionService } from "../laps/sessions.ts";
import type { SurveyService } from "../survey/survey.ts";

/** What GET /api/laps/{id}/identify answers. */
export interface LapIdentifyResult extends IdentifyExplanation {
  lap_id: number;
  session_id: number;
  /** False for an incomplete lap: identification never tries one, whatever it would say. */
  complete: boolean;
}

/** What POST /api/tracks answers: the response schema. */
export const createTrackResultSchema = z.strictObject({
  signature: signatureEntrySchema,
  /** Sessions named: the lap's own, and the live one when it was unnamed. */
  named_sessions: z.array(z.int().min(1)),
});

/** What POST /api/tracks answers. */
export type CreateTrackResult = z.output<typeof createTrackResultSchema>;

/** What POST /api/tracks/identify answers (REFERENCE.md 5.7): the response schema. */
export const identifyResultSchema = z.strictObject({
  /** Unlabelled sessions that had a lap to try. */
  checked: z.int().min(0),
  /** Sessions named. */
  identified: z.int().min(0),
  /** Sessions named per circuit name, names sorted. */
  tracks: z.record(z.string(), z.int().min(1)),
});

/** What POST /api/tracks/identify answers. */
export type IdentifyResult = z.output<typeof identifyResultSchema>;

/** A session named by identification, and the circuit. */
export interface NamedSession {
  session: number;
  track: string;
}

/** What the track service calls on the other services. */
export interface TrackServices {
  /** The live session, named along with a lap's own; renamed through it so its copy follows. */
  live: TrackLive;
  /** A running labelled survey names the live session without matching. */
  survey: Pick<SurveyService, "running" | "status" | "slug">;
  /** Naming a session by hand. */
  sessions: Pick<SessionService, "rename">;
  /**
   * The surveyed bundles' compiled roads: their widths outrank the shipped
   * ones in "near the line" (surveyed_widths.ts). Without it the shipped
   * widths alone are used.
   */
  geometry?: Pick<GeometryService, "compiled">;
}

/** The live service as the track service uses it: the session, and naming it live. */
export type TrackLive = Pick<
  LiveService,
  "session" | "updateSession" | "withSession" | "tap" | "epoch"
>;

/** Options of {@linkcode TrackService}. */
export interface TrackOptions {
  /**
   * The reference lines to identify by; by default every line the project
   * ships (built once per process on first need).
   */
  references?: ReferenceIndex;
}

/** Laps shorter than this many ticks (2 s) are not tried by identify. */
const MIN_IDENTIFY_TICKS = 120;

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
  readonly #deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">;
  readonly #services: TrackServices;
  readonly #references: ReferenceIndex | null;
  #warming: Promise<ReferenceIndex> | null = null;
  readonly #widths: SurveyedWidths | null;
  /** Fingerprints of the stored bundles, one per bundle generation. */
  readonly fingerprints: FingerprintCache;

  /**
   * A service over `deps.kv`. Its fingerprint cache follows bundle changes
   * once subscribed (`fingerprints.listen(bus)`, done by createApp), and it
   * names the live session mid-lap once watching (`watchLive()`).
   */
  constructor(
    deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">,
    services: TrackServices,
    opts: TrackOptions = {},
  ) {
    this.#deps = deps;
    this.#services = services;
    this.#references = opts.references ?? null;
    this.#widths = services.geometry === undefined
      ? null
      : new SurveyedWidths(deps.kv, services.geometry, deps.log);
    this.fingerprints = new FingerprintCache(deps.kv, deps.log);
  }

  /**
   * The reference lines identification uses. The shipped ones are built on
   * first need in steps of a couple of milliseconds, letting other work run
   * between them, so a request never holds the event loop for the whole
   * build (88-320 ms at once). Live naming builds it too, a few steps per
   * frame; whichever runs first does the work, never twice. A configuration
   * a surveyed bundle speaks for is near within that bundle's measured road
   * width (see {@linkcode withRoadWidths}).
   */
  async references(): Promise<ReferenceIndex> {
    const base = await this.#baseReferences();
    if (this.#widths === null) return base;
    return withRoadWidths(base, await this.#widths.get());
  }

  #baseReferences(): Promise<ReferenceIndex> {
    if (this.#references !== null) return Promise.resolve(this.#references);
    this.#warming ??= (async () => {
      for (;;) {
        const index = warmDefaultIndex(WARM_BUDGET_MS);
        if (index !== null) return index;
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    })();
    return this.#warming;
  }

  /**
   * Builds the reference lines now, in the background of other work (see
   * {@linkcode references}); resolves once they are ready. A process that
   * will identify soon, or a test that wants live naming to follow a drive
   * from its first frame, calls it ahead.
   */
  warmReferences(): Promise<ReferenceIndex> {
    return this.#baseReferences();
  }

  /**
   * Live naming of the live session during its laps from the reference
   * lines (see live_naming.ts), not yet watching: its `watch()` starts it,
   * and its `candidates()` tell the live gap which layouts a lap may be.
   */
  liveNaming(): LiveNaming {
    return new LiveNaming({
      live: this.#services.live,
      survey: this.#services.survey,
      name: (match) => this.#nameLiveFromReference(match),
    }, this.#references);
  }

  /**
   * Starts naming the live session during its laps from the reference
   * lines (see live_naming.ts); returns the function that stops it.
   */
  watchLive(): () => void {
    return this.liveNaming().watch();
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
  async create(input: CreateTrackInput): Promise<CreateTrackResult> {
    // The dashboard's typed name comes here unparsed; the route's parse is the same schema.
    const { name, lap_id: lapId } = parseFields(createTrackSchema, input);
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
    const stored = await createSignature(kv, {
      name,
      ...shape,
      created_at: now().toISOString(),
      provenance: "user",
      lap_id: lap.id,
      session_id: lap.session_id,
      path: lapPath(lap.samples),
    });
    const signature = signatureEntry(stored);
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
  async list(): Promise<SignatureEntry[]> {
    return (await listSignatures(this.#deps.kv)).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id
    ).map(signatureEntry);
  }

  /**
   * Everything circuits are known by (GET /api/tracks): the user's
   * signatures, by name, then the reference lines the project ships, by
   * name; each says its `source`.
   */
  async listKnown(): Promise<TrackEntry[]> {
    // The lines only: the surveyed widths (references()) change how near counts, not which lines.
    const references = (await this.#baseReferences()).lines.map(referenceEntry)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return [...await this.list(), ...references];
  }

  /**
   * Explains what identification makes of lap `id`: every signature, bundle
   * and reference line with its scores and why it was kept or dropped, the
   * name the precedence gives, and the configurations the lap's shape
   * suggests. Only reads.
   *
   * @throws {NotFound} when the lap does not exist.
   */
  async explainLap(id: number): Promise<LapIdentifyResult> {
    const lap = await getLap(this.#deps.kv, id);
    if (!lap) throw new NotFound(`lap ${id} not found`);
    const explanation = explainIdentification(
      lap.samples,
      await listSignatures(this.#deps.kv),
      await this.fingerprints.candidates(),
      await this.references(),
    );
    return { lap_id: lap.id, session_id: lap.session_id, complete: lap.complete, ...explanation };
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
   * Identifies `trace` by the whole precedence: the stored signatures
   * (oldest first; the first that passes the four gates and the direction
   * test wins), then the bundles' fingerprints, then the reference lines.
   * Null when nothing matches confidently.
   */
  async identifyLap(trace: LapTrace): Promise<AnyIdentification | null> {
    return (await this.identifyKnown(trace)) ??
      identifyWithReferences(trace, [], [], await this.references()).identification;
  }

  /**
   * Identifies `trace` by what the user made known only: signatures, then
   * bundles (never the reference lines). Null when neither is sure.
   */
  async identifyKnown(trace: LapTrace): Promise<Identification | null> {
    // Fingerprints are loaded only when no signature matched.
    const bySignature = identifyTrace(trace, await listSignatures(this.#deps.kv), []);
    if (bySignature) return bySignature;
    return identifyTrace(trace, [], await this.fingerprints.candidates());
  }

  /**
   * Tries every unlabelled session, newest first, with its shortest full lap
   * (SPEC.md 4.8.2.6): signatures first, then bundles, then the reference
   * lines. Sessions named from a reference line are tried too, against
   * signatures and bundles only: what the user made known renames them.
   * Names those that match (announcing each on the bus) and leaves the rest
   * alone. Works on a fresh store: the reference lines are always known.
   */
  async identifyUnlabelled(): Promise<IdentifyResult> {
    const open = (await listSessions(this.#deps.kv)).filter((s) =>
      s.track_name === "" || s.track_source === "reference"
    );
    const { checked, named } = await this.#identify(open);
    const tally = new Map<string, number>();
    for (const n of named) tally.set(n.track, (tally.get(n.track) ?? 0) + 1);
    const result: IdentifyResult = { checked, identified: named.length, tracks: {} };
    for (const name of [...tally.keys()].sort()) result.tracks[name] = tally.get(name)!;
    return result;
  }

  /**
   * Names each of sessions `ids` (an import's) that is still unnamed as live
   * recording would have named it from the same laps (import_naming.ts):
   * during each lap from the reference lines, at each complete lap's end by
   * the whole precedence. Announces each session named. A session that
   * has a name (the file's, or one the driver typed meanwhile), and
   * sessions not in `ids`, are never touched.
   */
  async nameImported(ids: readonly number[]): Promise<NamedSession[]> {
    const named: NamedSession[] = [];
    for (const id of ids) {
      const session = await getSession(this.#deps.kv, id);
      if (!session || session.track_name !== "") continue;
      const naming = await nameLaps(this.#storedLaps(id), this);
      if (naming === null) continue;
      const updated = await this.#nameIfOpen(id, naming.name, naming.source, true);
      if (!updated) continue;
      named.push({ session: id, track: naming.name });
      this.#deps.bus.emit({ type: "session", session: updated, reason: "identified" });
    }
    return named;
  }

  /**
   * The name live recording would have given a session of `lap` alone (see
   * {@linkcode nameImported}), or null: for a lap file, named before its
   * session is stored.
   */
  namingOf(lap: NamingLap): Promise<Naming | null> {
    return nameLaps([lap], this);
  }

  /**
   * The name live recording would have given a session of `laps`, in the
   * order driven (see {@linkcode nameImported}), or null: for an import of
   * several laps, named before its session is stored.
   */
  namingOfLaps(laps: readonly NamingLap[]): Promise<Naming | null> {
    return nameLaps(laps, this);
  }

  /** The laps of session `id`, in the order stored, read one at a time. */
  async *#storedLaps(id: number): AsyncGenerator<Lap> {
    for (const summary of await listLaps(this.#deps.kv, id)) {
      const lap = await getLap(this.#deps.kv, summary.id);
      if (lap) yield lap;
    }
  }

  /**
   * The live lap hook: names a live session that is still unnamed from its
   * newest stored lap, announcing a `session` event (reason "identified")
   * before the lap's own event; an unsure or incomplete lap leaves it
   * unnamed, and the next lap tries again. A session named from a reference
   * line (live, mid-lap) is tried against signatures and bundles: what the
   * user made known wins and renames it. A name typed by the user, or given
   * by a signature or bundle, is never touched.
   *
   * While a labelled survey runs, the driver has said which circuit this
   * is: the session takes the survey's label (track source `user`, reason
   * "surveyed") without matching. Matching then would race the survey's own
   * autosaves, naming the session from the bundle or not depending on timing.
   */
  async nameLiveSession(lap: Lap, session: Session): Promise<Session | void> {
    const byReference = session.track_name !== "" && session.track_source === "reference";
    if (session.track_name !== "" && !byReference) return;
    const naming = await this.#liveName(lap, byReference);
    if (!naming) return;
    const updated = await this.#nameIfOpen(session.id, naming.name, naming.source, false);
    if (!updated) return;
    this.#deps.bus.emit({ type: "session", session: updated, reason: naming.reason });
    return updated;
  }

  /**
   * Names the live session after a reference line matched mid-lap, in the
   * live service's queue (creating the session when its first lap is not
   * stored yet), and announces it. Only an unnamed session is named. Never
   * rejects: a failure goes to the log.
   */
  async #nameLiveFromReference(match: ReferenceMatch): Promise<void> {
    await this.#services.live.withSession(async (session) => {
      if (session.track_name !== "") return;
      const updated = await this.#nameIfOpen(session.id, match.name, "reference", false);
      if (!updated) return;
      this.#deps.bus.emit({ type: "session", session: updated, reason: "identified" });
      return updated;
    });
  }

  /** Tries each of `sessions` in order; see {@linkcode identifyUnlabelled}. */
  async #identify(
    sessions: readonly Session[],
  ): Promise<{ checked: number; named: NamedSession[] }> {
    const { kv, bus } = this.#deps;
    let checked = 0;
    const named: NamedSession[] = [];
    for (const session of sessions) {
      const id = session.id;
      const chosen = lapToTry(await listLaps(kv, id));
      if (!chosen) continue;
      const lap = await getLap(kv, chosen.id);
      if (!lap) continue;
      checked++;
      // A reference line's name only gives way to what the user made known.
      const found = session.track_name === ""
        ? await this.identifyLap(lap.samples)
        : await this.identifyKnown(lap.samples);
      if (!found) continue;
      const updated = await this.#nameIfOpen(id, found.name, found.by, true);
      if (!updated) continue;
      named.push({ session: id, track: found.name });
      bus.emit({ type: "session", session: updated, reason: "identified" });
    }
    return { checked, named };
  }

  /**
   * Names session `id` after `name` (given by `source`) only if it is still
   * unnamed, or was named from a reference line and `source` is what the
   * user made known (a signature, a bundle, their own word): a name a driver
   * set meanwhile is never overwritten, and a reference line never renames.
   * Returns the updated session, or null when nothing changed or it is gone.
   * With `followLive` the change goes through the live service, so its copy
   * follows; the lap hooks, which run inside the live service's queue, write
   * the store directly and hand the live service what they wrote.
   */
  async #nameIfOpen(
    id: number,
    name: string,
    source: TrackSource,
    followLive: boolean,
  ): Promise<Session | null> {
    let changed = false;
    const at = this.#deps.now().toISOString();
    const edit = (s: Session): Session => {
      const open = s.track_name === "" ||
        (s.track_source === "reference" && source !== "reference");
      changed = open && (s.track_name !== name || s.track_source !== source);
      return changed ? touchSession({ ...s, track_name: name, track_source: source }, at) : s;
    };
    const updated = followLive
      ? await this.#services.live.updateSession(id, edit)
      : await updateSession(this.#deps.kv, id, edit);
    return changed ? updated : null;
  }

  /**
   * The name a stored live lap gives its session: the survey's label, else a
   * match of a complete lap (by signatures and bundles only when `knownOnly`);
   * or null (an incomplete lap is not matched).
   */
  async #liveName(
    lap: Lap,
    knownOnly: boolean,
  ): Promise<{ name: string; source: TrackSource; reason: string } | null> {
    const survey = this.#services.survey;
    const surveyed = survey.running ? survey.status().track : "";
    if (surveyed !== "") return { name: surveyed, source: "user", reason: "surveyed" };
    if (!lap.complete) return null;
    const found = knownOnly
      ? await this.identifyKnown(lap.samples)
      : await this.identifyLap(lap.samples);
    return found && { name: found.name, source: found.by, reason: "identified" };
  }
}
