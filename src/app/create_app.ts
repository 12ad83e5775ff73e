/**
 * The composition root: the one place the application is assembled. It
 * loads the source id, runs the start-up sweeps, builds every service in
 * order from the narrow dependencies of deps.ts, wires the lap hook
 * (identification) and the watchers (fingerprints, and compiled geometry
 * when asked), and returns {@linkcode App}: a plain record of services.
 * Services never see `App`; each is given the dependencies and the other
 * services it calls, so reading this file tells who owns what.
 *
 * @module
 */
import type { ReferenceIndex } from "../core/identify/reference_index.ts";
import { sweepOrphanBundleChunks } from "../storage/bundles.ts";
import { migrateJsonBundles } from "../storage/bundle_migration.ts";
import { ensureLapIndex } from "../storage/bests.ts";
import { sweepOrphanSamples } from "../storage/laps.ts";
import { finishSessionRemovals } from "../storage/session_removal.ts";
import { sweepEmptyLiveSessions } from "../storage/sessions.ts";
import { sourceId as loadSourceId, storedSourceId } from "../storage/source_id.ts";
import { type DiskProbe, diskProbe } from "../storage/disk_space.ts";
import { readOnlyReason } from "../storage/kv.ts";
import { feedOutbox } from "../storage/hub_outbox.ts";
import { fileSpill, spillDirFor, type SpillPort } from "../storage/spill.ts";
import { fileSurveySpill, type SurveySpillPort } from "../storage/survey_spill.ts";
import { type KeeperBounds, LapKeeper } from "./store/lap_keeper.ts";
import { SurveyKeeper, type SurveyKeeperBounds } from "./survey/survey_keeper.ts";
import { StoreHealth } from "./store/store_health.ts";
import { AnalysisService } from "./analysis/analysis.ts";
import { announceNotes } from "./live/coaching_feed.ts";
import { LiveCues } from "./live/live_cue.ts";
import { BundleService } from "./bundles/bundles.ts";
import { EventBus } from "./bus.ts";
import type { AppDeps } from "./deps.ts";
import { FileService } from "./laps/files.ts";
import { GeometryService } from "./bundles/geometry.ts";
import { LapExchange } from "./laps/lap_exchange.ts";
import { LiveService } from "./live/live.ts";
import type { LiveFrameSource } from "./live/live_frame.ts";
import { LiveFrameService } from "./live/live_frames.ts";
import { bundleCleanupWarnings, type Log, silentLog } from "./log.ts";
import { SessionService } from "./laps/sessions.ts";
import { SurveyService } from "./survey/survey.ts";
import type { TelemetrySource, TelemetryStatus } from "./live/telemetry_source.ts";
import { TrackService } from "./tracks/tracks.ts";
import { TeamReference, type TeamReferenceOptions } from "./hub_link/team_reference.ts";
import type { HubSettings } from "../core/hub/hub_settings.ts";
import { HubLink, type HubLinkOptions } from "./hub_link/hub_link.ts";

/** Options for {@linkcode createApp}. */
export interface AppOptions {
  /** The open store; the caller closes it. */
  kv: Deno.Kv;
  /** The clock; the real one by default. */
  now?: () => Date;
  /**
   * Where background failures are reported. By default nowhere
   * ({@linkcode silentLog}): the application never writes to the console,
   * so a process that runs for a user passes one that does
   * (src/server/console_log.ts).
   */
  log?: Log;
  /**
   * Rebuild compiled geometry as soon as a bundle changes (a logger
   * process wants maps ready); by default geometry is compiled when read.
   */
  watchGeometry?: boolean;
  /** The reference lines circuits are named by; every line the project ships by default. */
  references?: ReferenceIndex;
  /** The store's database file, for status; null or absent for a store in memory. */
  storePath?: string | null;
  /**
   * Where laps the store refuses wait: by default a folder named after the
   * store under `spillBase` (`--spill`, else the OS temp directory); none
   * for a store in memory. Tests pass one that fails on cue.
   */
  spill?: SpillPort | null;
  /** The folder the default spill goes under (`--spill DIR`); the OS temp directory when absent. */
  spillBase?: string | null;
  /** Measures the store disk's free space; by default the disk of `storePath` (none in memory). */
  disk?: DiskProbe | null;
  /**
   * Where survey saves the store refuses wait: by default the laps' spill
   * folder (see `spill`), none for a store in memory. Tests pass one.
   */
  surveySpill?: SurveySpillPort | null;
  /** Bounds of the survey saves kept (see survey_keeper.ts). */
  surveyBounds?: Partial<SurveyKeeperBounds>;
  /** Bounds of the laps kept in memory and in the spill (see lap_keeper.ts). */
  keepBounds?: Partial<KeeperBounds>;
  /** Free space under which the store is `low`; by default the larger of 100 MiB and ten laps. */
  lowSpaceBytes?: number;
  /**
   * Measure the disk's free space every `probeMs` (store_health.ts's
   * PROBE_MS by default), announcing a change and trying waiting laps again
   * once it grew (a logger process wants this); by default it is measured
   * only when status is read or a write is refused.
   */
  watchStore?: boolean | { probeMs: number };
  /**
   * `--reference team`: the hub whose team's best lap at the circuit in the
   * car the live gap and brake markers run against (see
   * hub_link/team_reference.ts); the driver's own best when absent.
   */
  teamReference?: { link: HubSettings; options?: TeamReferenceOptions } | null;
  /**
   * The team hub (`--hub`, `--hub-token`): recorded laps go to its outbox
   * and are sent in the background; none by default. `link` is the
   * sender's clock and bounds (tests fake them).
   */
  hub?: { settings: HubSettings; link?: HubLinkOptions } | null;
}

/** The running application: its dependencies, its services, and its lifecycle. */
export interface App extends Readonly<AppDeps> {
  /** When the application started. */
  readonly startedAt: Date;
  /** The store's database file (AppOptions.storePath), or null for a store in memory. */
  readonly storePath: string | null;
  /** The live session: frames in, laps stored, lap hooks and frame taps. */
  readonly live: LiveService;
  /** The store's health: writable, free space, laps waiting for it and lost. */
  readonly storeHealth: StoreHealth;
  /** The border survey of this process. */
  readonly survey: SurveyService;
  /** Sessions and laps, laps across sessions and bests; a driver's edits and deletions. */
  readonly sessions: SessionService;
  /** Lap analysis over stored laps: compare, corners, sectors, consistency. */
  readonly analysis: AnalysisService;
  /** Compiled geometry, maps and coverage of stored bundles. */
  readonly geometry: GeometryService;
  /** Stored track bundles: list, read, import, export, authoring, official match. */
  readonly bundles: BundleService;
  /** Track signatures and identification, with the fingerprint cache. */
  readonly tracks: TrackService;
  /** Lap files and MoTeC CSV, and capture imports. */
  readonly laps: LapExchange;
  /** Imports and exports through files, for the command line and the dashboard. */
  readonly files: FileService;
  /** The link to the team hub, or null when none is configured (or the store is read-only). */
  readonly hub: HubLink | null;
  /** Live frames (gap to the reference, sector, fuel) for the HTTP stream and the dashboard. */
  readonly frames: LiveFrameSource;
  /** Attaches the telemetry transport whose status the app reports. */
  attachTelemetry(source: TelemetrySource): void;
  /** The telemetry transport's status, or null when none is attached. */
  telemetryStatus(): TelemetryStatus | null;
  /**
   * Closes the telemetry source, waits for queued lap writes, stops (and so
   * saves) a running survey, and stops the watchers. The store stays open.
   */
  shutdown(): Promise<void>;
}

/**
 * What a face (the HTTP server, the dashboard) is handed: the services, the
 * bus, the log and the clock, never the store. A face reads and changes
 * stored data only through the services, so their rules cannot be skipped.
 */
export type AppFace = Omit<App, "kv">;

/**
 * Creates the application over an open store: loads (or creates) the source
 * id, sweeps what an interrupted write left behind, then builds the services.
 */
export async function createApp(opts: AppOptions): Promise<App> {
  const { kv } = opts;
  const now = opts.now ?? (() => new Date());
  const log = opts.log ?? silentLog;
  const readOnly = readOnlyReason(kv);
  const storePath = opts.storePath ?? null;
  // A store opened read-only takes no writes: no sweeps, and its source id is only read.
  const sourceId = readOnly === null
    ? await loadSourceId(kv)
    : await storedSourceId(kv) ?? "000000";
  if (readOnly === null) await tidyStore(kv, log);
  // Before any lap is stored (those a spill kept included), so every recorded lap owes the hub.
  if (opts.hub && readOnly === null) feedOutbox(kv);

  const deps: AppDeps = { kv, bus: new EventBus(log), now, sourceId, log };
  const { keeper, surveyKeeper, storeHealth, recovered } = storeKeeping(
    opts,
    deps.bus,
    readOnly,
    storePath,
    log,
  );
  const live = new LiveService(deps, { keep: { keeper, health: storeHealth } });
  // Laps a process before this one spilled and never stored go in first, before any new lap.
  if (recovered > 0 && readOnly === null) await live.retryWaiting();
  if (opts.watchStore) {
    storeHealth.watch(() => {
      if (readOnly !== null || !storeHealth.spaceReturned()) return;
      // Room again: waiting laps are tried now; with none waiting, a refused write of
      // something else (a session's name) left nothing to try, and the disk speaks for itself.
      if (keeper.size > 0) void live.retryWaiting();
      else storeHealth.stored();
      if (surveyKeeper.size > 0) void survey.retryKept();
    }, opts.watchStore === true ? undefined : opts.watchStore.probeMs);
  }
  const survey = new SurveyService(deps, live, surveyKeeper);
  // Survey saves a process before this one spilled are stored next, before any new work.
  if (surveyKeeper.size > 0 && readOnly === null) await survey.retryKept();
  const sessions = new SessionService(deps, live);
  const geometry = new GeometryService(deps);
  const bundles = new BundleService(deps, { geometry, survey });
  const analysis = new AnalysisService(deps, { bundles });
  const tracks = new TrackService(deps, { live, survey, sessions, geometry }, {
    references: opts.references,
  });
  const laps = new LapExchange(deps, { sessions, tracks });
  const files = new FileService({ bundles, laps });
  const cues = new LiveCues(deps);
  const naming = tracks.liveNaming();
  const { hub, team, frames } = liveLinks(deps, opts, readOnly, {
    live,
    sessions,
    bundles,
    laps,
    cues,
    analysis,
    naming,
  });

  // Fingerprints follow bundle changes, and warm up when a drive starts.
  tracks.fingerprints.listen(deps.bus);
  // A new unnamed live session is named from its laps before each lap is announced...
  live.onLap((lap, session) => tracks.nameLiveSession(lap, session));
  // ...then its coaching notes go on the bus (against a reference of the circuit it was named),
  // and the next lap's cue follows them.
  announceNotes(deps, live, analysis, team);
  // ...and from the reference lines while its first lap is driven.
  const stopLiveNaming = naming.watch();
  const geometryWatch = opts.watchGeometry ? geometry.watch() : null;

  let telemetry: TelemetrySource | null = null;
  return {
    ...deps,
    startedAt: now(),
    storePath,
    live,
    storeHealth,
    survey,
    sessions,
    analysis,
    geometry,
    bundles,
    tracks,
    laps,
    files,
    hub,
    frames,
    attachTelemetry(source) {
      telemetry = source;
    },
    telemetryStatus() {
      return telemetry?.status() ?? null;
    },
    async shutdown() {
      await telemetry?.close();
      await live.flush();
      // Laps still unsent stay in the outbox for the next start; a request in flight is let go.
      await hub?.close();
      // One last try, so laps that waited for room the disk now has are stored before the end.
      if (readOnly === null) await live.retryWaiting();
      live.stopRetrying();
      storeHealth.stop();
      reportUnsaved(keeper, log);
      // A running survey ends with the process: stopping it saves and counts the run.
      await survey.shutdown();
      await geometryWatch?.stop();
      stopLiveNaming();
      frames.close();
      cues.close();
      team?.close();
      // A reference read under way finishes before the caller closes the store.
      await frames.settled();
      await team?.settled();
    },
  };
}

/**
 * The team hub's link (none on a read-only store: it records nothing and
 * cannot mark what it sent), the team reference, and the live frames wired
 * to both; with `--share-live` the frames, never the packets, go to the
 * hub, so recording never waits for the link.
 */
function liveLinks(
  deps: AppDeps,
  opts: AppOptions,
  readOnly: string | null,
  s: {
    live: LiveService;
    sessions: SessionService;
    bundles: BundleService;
    laps: LapExchange;
    cues: LiveCues;
    analysis: AnalysisService;
    naming: ReturnType<TrackService["liveNaming"]>;
  },
): { hub: HubLink | null; team: TeamReference | null; frames: LiveFrameService } {
  const hub = opts.hub && readOnly === null
    ? new HubLink(
      deps,
      { laps: s.laps, sessions: s.sessions, bundles: s.bundles },
      opts.hub.settings,
      opts.hub.link,
    )
    : null;
  hub?.start();
  const team = opts.teamReference
    ? new TeamReference(deps, opts.teamReference.link, opts.teamReference.options)
    : null;
  const frames = new LiveFrameService(deps, {
    live: s.live,
    sessions: s.sessions,
    bundles: s.bundles,
    cues: s.cues,
    corners: s.analysis,
    naming: s.naming,
    team: team ?? undefined,
    messages: hub?.messages,
  });
  if (opts.hub?.settings.shareLive) hub?.shareLive(frames);
  return { hub, team, frames };
}

/**
 * Finishes what an interrupted write left behind, then brings old data up to
 * date: only on a store that takes writes.
 */
async function tidyStore(kv: Deno.Kv, log: Log): Promise<void> {
  // A removal cut short is finished first, so the sweeps after it see none of its laps.
  await finishSessionRemovals(kv);
  await sweepOrphanSamples(kv);
  await sweepEmptyLiveSessions(kv);
  await sweepOrphanBundleChunks(kv);
  // Generations written before the table encoding are rewritten as tables, once.
  await migrateJsonBundles(kv, {
    ...bundleCleanupWarnings(log),
    onUnreadable: (slug, err) => log.warn(`bundle store: "${slug}" left as it is`, err),
  });
  // The lap index is rebuilt when its marker is missing (an older store, a rebuild cut short).
  await ensureLapIndex(kv);
}

/**
 * Where refused laps wait (memory and the spill), with what an earlier
 * process left there taken back, and the store's health over them.
 */
function storeKeeping(
  opts: AppOptions,
  bus: EventBus,
  readOnly: string | null,
  storePath: string | null,
  log: Log,
): { keeper: LapKeeper; surveyKeeper: SurveyKeeper; storeHealth: StoreHealth; recovered: number } {
  const spill = opts.spill !== undefined
    ? opts.spill
    : storePath === null
    ? null
    : fileSpill(spillDirFor(storePath, opts.spillBase ?? null));
  const keeper = new LapKeeper(spill, log, opts.keepBounds);
  // What a process before this one spilled is taken back before the health's first look.
  const recovered = keeper.recover();
  const surveySpill = opts.surveySpill !== undefined
    ? opts.surveySpill
    : storePath === null || spill === null
    ? null
    : fileSurveySpill(spillDirFor(storePath, opts.spillBase ?? null));
  const surveyKeeper = new SurveyKeeper(surveySpill, log, opts.surveyBounds);
  surveyKeeper.recover();
  const storeHealth = new StoreHealth({
    bus,
    disk: opts.disk !== undefined ? opts.disk : storePath === null ? null : diskProbe(storePath),
    readOnly,
    counts: () => keeper.counts(),
    surveys: () => surveyKeeper.counts(),
    lowSpaceBytes: opts.lowSpaceBytes,
  });
  surveyKeeper.onChange = () => storeHealth.check();
  return { keeper, surveyKeeper, storeHealth, recovered };
}

/** Says, at the end, which laps still wait in the spill and which are lost. */
function reportUnsaved(keeper: LapKeeper, log: Log): void {
  const left = keeper.counts();
  const lost = keeper.memoryOnly;
  if (left.waiting > lost) {
    log.error(
      `${left.waiting - lost} laps not yet saved are kept in ${left.spill}; ` +
        "the next start with room on the store's disk stores them",
    );
  }
  if (lost > 0) {
    log.error(
      `${lost} laps not yet saved are lost: the spill could not keep them` +
        (left.spill_error === null ? "" : ` (${left.spill_error})`),
    );
  }
}
