/**
 * The application: one store, one bus, one live session, and the telemetry
 * source once it is attached. Both faces (HTTP and TUI) hold one of these and
 * call the services with it.
 *
 * @module
 */
import { EventBus } from "./bus.ts";
import { LiveService } from "./live.ts";
import { SurveyService } from "./survey.ts";
import type { TelemetrySource, TelemetryStatus } from "./telemetry_source.ts";
import { sourceId } from "../storage/source_id.ts";
import { sweepOrphanSamples } from "../storage/laps.ts";
import { sweepEmptyLiveSessions } from "../storage/sessions.ts";
import { sweepOrphanBundleChunks } from "../storage/bundles.ts";
import { installTrackIdentification } from "./tracks.ts";

/** The application's version, reported by /api/health. */
export const APP_VERSION = "0.1.0";

/** Options for {@linkcode createApp}. */
export interface AppOptions {
  kv: Deno.Kv;
  now?: () => Date;
}

/** The running application. */
export class App {
  /** The store. */
  readonly kv: Deno.Kv;
  /** Announcements for the TUI and SSE. */
  readonly bus = new EventBus();
  /** The live session. */
  readonly live: LiveService;
  /** The border survey. */
  readonly survey: SurveyService;
  /** The clock. */
  readonly now: () => Date;
  /** This installation's source id. */
  readonly sourceId: string;
  /** When the application started. */
  readonly startedAt: Date;
  #telemetry: TelemetrySource | null = null;

  /** Use {@linkcode createApp}. */
  constructor(kv: Deno.Kv, sourceId: string, now: () => Date) {
    this.kv = kv;
    this.now = now;
    this.sourceId = sourceId;
    this.startedAt = now();
    this.live = new LiveService({ kv, bus: this.bus, now });
    this.survey = new SurveyService({ kv, bus: this.bus, live: this.live, now, sourceId });
  }

  /** Attaches the telemetry transport whose status the app reports. */
  attachTelemetry(source: TelemetrySource): void {
    this.#telemetry = source;
  }

  /** The telemetry transport's status, or null when none is attached. */
  telemetryStatus(): TelemetryStatus | null {
    return this.#telemetry?.status() ?? null;
  }

  /** Waits for queued writes, then closes the telemetry source. The store stays open. */
  async shutdown(): Promise<void> {
    await this.#telemetry?.close();
    await this.live.flush();
    // A running survey ends with the process: stopping it saves and counts the run.
    await this.survey.shutdown();
  }
}

/**
 * Creates the application over an open store: loads (or creates) the source
 * id and sweeps what an interrupted write left behind.
 */
export async function createApp(opts: AppOptions): Promise<App> {
  const now = opts.now ?? (() => new Date());
  const id = await sourceId(opts.kv);
  await sweepOrphanSamples(opts.kv);
  await sweepEmptyLiveSessions(opts.kv);
  await sweepOrphanBundleChunks(opts.kv);
  const app = new App(opts.kv, id, now);
  // Names a new unnamed session from its laps; shares the fingerprint cache.
  installTrackIdentification(app);
  return app;
}
