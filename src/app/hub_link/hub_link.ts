/**
 * The logger's link to the team hub (issue #38): it marks the store so
 * every complete recorded lap enters the outbox with the lap, runs the
 * sender (hub_sender.ts), queues what a driver asks to push (imported laps,
 * a session, a bundle's votes), queues a bundle's votes when a survey is
 * saved into it, and pulls the team bundle into the local one through the
 * bundle import (SPEC's vote merge, one atomic flip).
 *
 * @module
 */
import { NotFound } from "../../core/errors.ts";
import type { HubSettings } from "../../core/hub/hub_settings.ts";
import { feedOutbox, type OutboxRef, queueOutbox } from "../../storage/hub_outbox.ts";
import { getLapSummary } from "../../storage/laps.ts";
import { getSession } from "../../storage/sessions.ts";
import type { AppDeps } from "../deps.ts";
import type { BundleService } from "../bundles/bundles.ts";
import type { BundleImportResult } from "../bundles/bundle_answers.ts";
import { bundleSlug } from "../bundles/bundle_slug.ts";
import type { LapExchange } from "../laps/lap_exchange.ts";
import type { SessionService } from "../laps/sessions.ts";
import { HubClient, type HubClientOptions } from "./hub_client.ts";
import { HubSender, type HubTimers } from "./hub_sender.ts";
import type { HubPushResult, HubStatus } from "./hub_status.ts";
import type { LiveFrameSource } from "../live/live_frame.ts";
import { HubMessages } from "./hub_messages.ts";
import { LiveShare, type LiveShareOptions } from "./live_share.ts";

/** The services the link reads laps and bundles through. */
export interface HubLinkServices {
  laps: Pick<LapExchange, "exportFile">;
  sessions: Pick<SessionService, "laps">;
  bundles: Pick<BundleService, "export" | "importBytes">;
}

/** Options of {@linkcode HubLink}: the sender's clock and bounds, the client's timeout. */
export interface HubLinkOptions extends HubClientOptions {
  timers?: HubTimers;
  maxEntries?: number;
  /** The live link's clock and buffer bound (`--share-live`). */
  live?: LiveShareOptions;
}

/** This logger's pushes to and pulls from one team hub. */
export class HubLink {
  readonly #deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">;
  readonly #services: HubLinkServices;
  readonly #client: HubClient;
  readonly #sender: HubSender;
  readonly #settings: HubSettings;
  readonly #opts: HubLinkOptions;
  #live: LiveShare | null = null;
  #unsubscribe: (() => void) | null = null;
  /** The hub's messages to the driver (taken only while sharing live). */
  readonly messages: HubMessages;

  /** A link to the hub of `settings`; nothing is sent before {@linkcode start}. */
  constructor(
    deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">,
    services: HubLinkServices,
    settings: HubSettings,
    opts: HubLinkOptions = {},
  ) {
    this.#deps = deps;
    this.#services = services;
    this.#client = new HubClient(settings, opts);
    this.#settings = settings;
    this.#opts = opts;
    this.messages = new HubMessages(deps);
    this.#sender = new HubSender(deps, this.#client, {
      lapFile: (id) => this.#services.laps.exportFile(id).catch(orNull),
      bundleFile: (slug) => this.#services.bundles.export(slug).catch(orNull),
    }, opts);
  }

  /**
   * Feeds the outbox from every lap stored from now on, follows the laps and
   * survey saves, and sends what the outbox holds (a start before this one
   * left included).
   */
  start(): void {
    feedOutbox(this.#deps.kv);
    this.#unsubscribe = this.#deps.bus.subscribe((event) => {
      if (event.type === "lap" && event.lap.complete && !event.lap.imported) {
        void this.#sender.kick();
      }
      if (event.type === "bundle" && event.reason === "survey") {
        void this.#queue([{ kind: "bundle", slug: event.slug }]).catch((err) =>
          this.#deps.log.error(`hub: the votes of ${event.slug} were not queued`, err)
        );
      }
    });
    void this.#sender.kick();
  }

  /**
   * Sends `frames` to the hub and takes its messages (`--share-live`),
   * until {@linkcode close}; a second call does nothing.
   */
  shareLive(frames: Pick<LiveFrameSource, "subscribe">): void {
    if (this.#live !== null) return;
    const opts = { timers: this.#opts.timers, ...this.#opts.live };
    this.#live = new LiveShare(this.#deps, frames, this.messages, this.#settings, opts);
    this.#live.start();
  }

  /** The link's status (`hub` in GET /api/status); `live` only while sharing live. */
  status(): HubStatus {
    const { waiting, sent, parked, state, last_error } = this.#sender.counts();
    const status: HubStatus = { url: this.#client.url, waiting, sent, parked, state, last_error };
    if (this.#live !== null) status.live = this.#live.status();
    return status;
  }

  /** Calls `fn` whenever the status changes (the live link's connection too); returns what ends it. */
  onChange(fn: () => void): () => void {
    const offSender = this.#sender.onChange(fn);
    const offLive = this.#live?.onChange(fn);
    return () => {
      offSender();
      offLive?.();
    };
  }

  /**
   * Queues laps `ids` (imported ones too: they go only when asked) in one
   * commit, all or none, a parked one taken back, and wakes the sender.
   *
   * @throws {NotFound} naming every id no stored lap has; nothing is queued then.
   */
  async pushLaps(ids: readonly number[]): Promise<HubPushResult> {
    const missing: number[] = [];
    for (const id of ids) {
      const lap = await getLapSummary(this.#deps.kv, id);
      if (lap === null || await getSession(this.#deps.kv, lap.session_id) === null) {
        missing.push(id);
      }
    }
    if (missing.length > 0) {
      throw new NotFound(
        `no stored lap has id ${missing.join(", ")}: nothing was queued for the hub`,
      );
    }
    await this.#queue(ids.map((id) => ({ kind: "lap", id })));
    return { queued: [...ids], hub: this.status() };
  }

  /** Queues every lap of session `id` (see {@linkcode pushLaps}); NotFound for an unknown session. */
  async pushSession(id: number): Promise<HubPushResult> {
    const laps = await this.#services.sessions.laps(id);
    return await this.pushLaps(laps.map((l) => l.id));
  }

  /** Queues the votes of bundle `slug`; NotFound when no such bundle is stored. */
  async pushBundle(slug: string): Promise<void> {
    await this.#services.bundles.export(bundleSlug(slug));
    await this.#queue([{ kind: "bundle", slug }]);
  }

  /**
   * Fetches the team bundle `slug` from the hub and merges it into the
   * local one through the bundle import (all or nothing).
   *
   * @throws {NotFound} when the hub has none; an Error with the hub's reason otherwise.
   */
  async pullBundle(slug: string): Promise<BundleImportResult> {
    const answer = await this.#client.getBundle(bundleSlug(slug));
    if (!answer.ok) {
      if (answer.status === 404) throw new NotFound(`the hub has no bundle ${slug}`);
      throw new Error(`the hub did not give bundle ${slug}: ${answer.reason}`);
    }
    return await this.#services.bundles.importBytes(answer.body);
  }

  /**
   * Sends what waits now, once, without backing off: resolves when the
   * outbox is empty or a try failed (what is left stays queued).
   */
  async flush(): Promise<HubStatus> {
    await this.#sender.kick();
    return this.status();
  }

  /** Stops following and sending; a request in flight is aborted and its entry kept. */
  async close(): Promise<void> {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    await Promise.all([this.#sender.close(), this.#live?.close()]);
  }

  async #queue(refs: OutboxRef[]): Promise<void> {
    await queueOutbox(this.#deps.kv, refs, this.#deps.now().toISOString());
    void this.#sender.kick();
  }
}

function orNull(err: unknown): null {
  if (err instanceof NotFound) return null;
  throw err;
}
