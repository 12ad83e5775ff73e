/**
 * The background sender of the hub outbox (storage/hub_outbox.ts): one
 * request in flight, oldest entry first. An entry leaves the outbox only
 * once the hub answered 200 or 201 (the hub keys a lap by its content, so
 * a retry after a lost answer stores nothing twice). While the hub is down,
 * slow or the machine offline it backs off with jitter (core/hub/hub_backoff.ts)
 * and never spins; a refusal of the entry itself (400, 413, any other 4xx)
 * parks it with the hub's reason; 401 or 403 stop the sender until the
 * process restarts, as no retry can mend a wrong token. Recording never
 * waits for it: laps reach the outbox in their own commit, and the sender
 * only reads them.
 *
 * @module
 */
import { hubBackoffMs } from "../../core/hub/hub_backoff.ts";
import {
  listOutbox,
  type OutboxEntry,
  type OutboxRef,
  parkOutbox,
  removeOutbox,
} from "../../storage/hub_outbox.ts";
import type { Log } from "../log.ts";
import type { HubAnswer, HubClient } from "./hub_client.ts";

/** Most entries the outbox keeps: weeks of laps (200 a day for 100 days). */
export const OUTBOX_MAX_ENTRIES = 20_000;

/** Where the sender reads what an entry sends; null when it is gone (a deleted lap). */
export interface HubPayloads {
  /** Lap `id`'s lap file, or null when no such lap is stored. */
  lapFile(id: number): Promise<unknown | null>;
  /** Bundle `slug`'s file, or null when no such bundle is stored. */
  bundleFile(slug: string): Promise<unknown | null>;
}

/** The sender's clock: timers and the jitter's random numbers, faked in tests. */
export interface HubTimers {
  /** Runs `fn` after `ms`; returns what cancels it. */
  after(ms: number, fn: () => void): () => void;
  /** A number in [0, 1). */
  random(): number;
}

/** Real timers and Math.random. */
export const realTimers: HubTimers = {
  after(ms, fn) {
    const id = setTimeout(fn, ms);
    return () => clearTimeout(id);
  },
  random: Math.random,
};

/** What the sender reports (the `hub` part of status, less the URL). */
export interface SenderCounts {
  /** Entries waiting in the outbox as last counted. */
  waiting: number;
  /** Entries the hub took since the process started. */
  sent: number;
  /** Entries parked since the process started (refused by the hub for good). */
  parked: number;
  /** Entries let go past {@linkcode OUTBOX_MAX_ENTRIES} since the process started. */
  dropped: number;
  /** Why the last try failed, or null once one went through. */
  last_error: string | null;
  /** `idle`, `sending`, `backoff` (waiting to try again) or `stopped` (token refused). */
  state: "idle" | "sending" | "backoff" | "stopped";
}

type Outcome = "next" | "retry" | "halt";

/** Sends the outbox to the hub in the background. */
export class HubSender {
  readonly #kv: Deno.Kv;
  readonly #client: HubClient;
  readonly #payloads: HubPayloads;
  readonly #log: Log;
  readonly #timers: HubTimers;
  readonly #now: () => Date;
  readonly #maxEntries: number;
  #counts: SenderCounts = {
    waiting: 0,
    sent: 0,
    parked: 0,
    dropped: 0,
    last_error: null,
    state: "idle",
  };
  #failures = 0;
  #running: Promise<void> | null = null;
  #again = false;
  #cancelTimer: (() => void) | null = null;
  #closed = false;
  readonly #abort = new AbortController();
  readonly #changed = new Set<() => void>();

  /** A sender of `kv`'s outbox to `client`. */
  constructor(
    deps: { kv: Deno.Kv; log: Log; now: () => Date },
    client: HubClient,
    payloads: HubPayloads,
    opts: { timers?: HubTimers; maxEntries?: number } = {},
  ) {
    this.#kv = deps.kv;
    this.#log = deps.log;
    this.#now = deps.now;
    this.#client = client;
    this.#payloads = payloads;
    this.#timers = opts.timers ?? realTimers;
    this.#maxEntries = opts.maxEntries ?? OUTBOX_MAX_ENTRIES;
  }

  /** The counts as they stand. */
  counts(): SenderCounts {
    return { ...this.#counts };
  }

  /** Calls `fn` after every change of the counts; returns what ends it. */
  onChange(fn: () => void): () => void {
    this.#changed.add(fn);
    return () => this.#changed.delete(fn);
  }

  /**
   * Looks at the outbox now, unless the sender is backing off (new entries
   * wait for its timer: a hub that is down is not asked more often because
   * laps keep coming) or stopped. Returns when this pass is over.
   */
  kick(): Promise<void> {
    if (this.#closed) return this.#running ?? Promise.resolve();
    if (this.#counts.state === "stopped" || this.#cancelTimer !== null) {
      // Not sent now, but counted, so status tells what piles up while the hub is away.
      return this.#recount();
    }
    if (this.#running !== null) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#pass().finally(() => {
      this.#running = null;
      // A kick that came as the pass was ending (its back-off timer firing early) is not lost.
      if (this.#again && !this.#closed) {
        this.#again = false;
        void this.kick();
      }
    });
    return this.#running;
  }

  /** Stops: no new try, the request in flight aborted (its entry stays for the next start). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#cancelTimer?.();
    this.#cancelTimer = null;
    this.#abort.abort();
    await this.#running;
  }

  async #recount(): Promise<void> {
    try {
      this.#set({ waiting: (await listOutbox(this.#kv)).length });
    } catch (err) {
      this.#log.error("hub outbox", err);
    }
  }

  async #pass(): Promise<void> {
    try {
      do {
        this.#again = false;
        const outcome = await this.#drain();
        if (outcome === "retry") {
          // Entries queued during the failed pass are counted, though they wait for the timer.
          if (this.#again) await this.#recount();
          this.#again = false;
          return this.#backOff();
        }
        if (outcome === "halt") return;
      } while (this.#again && !this.#closed);
      this.#set({ state: "idle" });
    } catch (err) {
      // The store itself failed (a full disk): tried again later, as the hub being down is.
      this.#failures++;
      this.#set({ last_error: `hub outbox: ${(err as Error).message}` });
      this.#log.error("hub outbox", err);
      this.#backOff();
    }
  }

  #backOff(): void {
    if (this.#closed) return;
    const ms = hubBackoffMs(this.#failures, this.#timers.random());
    this.#cancelTimer = this.#timers.after(ms, () => {
      this.#cancelTimer = null;
      void this.kick();
    });
    // Told once the timer is set, so a watcher of the state sees the wait it names.
    this.#set({ state: "backoff" });
  }

  /** Sends the outbox until it is empty, or a try fails ("retry") or the token is refused ("halt"). */
  async #drain(): Promise<Outcome | "empty"> {
    for (;;) {
      let entries = await listOutbox(this.#kv);
      entries = await this.#bound(entries);
      this.#set({ waiting: entries.length });
      if (entries.length === 0) return "empty";
      // A batch between two counts, so new entries are found without listing before every send.
      for (const entry of entries.slice(0, 50)) {
        if (this.#closed) return "halt";
        this.#set({ state: "sending" });
        const outcome = await this.#sendOne(entry);
        if (outcome !== "next") return outcome;
      }
    }
  }

  /** `entries` within the bound: past it the oldest are let go (their laps stay stored), counted and logged. */
  async #bound(entries: OutboxEntry[]): Promise<OutboxEntry[]> {
    const over = entries.length - this.#maxEntries;
    if (over <= 0) return entries;
    for (const e of entries.slice(0, over)) await removeOutbox(this.#kv, e.ref);
    this.#set({ dropped: this.#counts.dropped + over });
    this.#log.warn(
      `hub outbox: ${over} oldest entr${
        over === 1 ? "y" : "ies"
      } let go past ${this.#maxEntries} ` +
        "waiting; those laps stay stored and `push` sends them",
    );
    return entries.slice(over);
  }

  async #sendOne(entry: OutboxEntry): Promise<Outcome> {
    const payload = await this.#payloadOf(entry.ref);
    if (payload === null) {
      // Deleted since it was queued: nothing left to send.
      await removeOutbox(this.#kv, entry.ref);
      this.#set({ waiting: this.#left() });
      return "next";
    }
    const answer = await this.#post(entry.ref, payload);
    if (this.#closed && !answer.ok) return "halt";
    if (answer.ok) {
      await removeOutbox(this.#kv, entry.ref);
      this.#failures = 0;
      this.#set({ sent: this.#counts.sent + 1, waiting: this.#left(), last_error: null });
      return "next";
    }
    return await this.#refused(entry, answer.status, answer.reason);
  }

  async #refused(entry: OutboxEntry, status: number, reason: string): Promise<Outcome> {
    if (status === 401 || status === 403) {
      const why = `the hub refused the token (${reason}); pushes stop until a restart with a ` +
        "valid --hub-token";
      this.#set({ state: "stopped", last_error: why });
      this.#log.error(`hub: ${why}`);
      return "halt";
    }
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
      const what = describeRef(entry.ref);
      await parkOutbox(this.#kv, entry, reason, this.#now().toISOString());
      this.#set({
        parked: this.#counts.parked + 1,
        waiting: this.#left(),
        last_error: `${what} parked: ${reason}`,
      });
      this.#log.warn(`hub: ${what} refused and parked: ${reason}`);
      return "next";
    }
    this.#failures++;
    this.#set({ last_error: reason });
    return "retry";
  }

  /** The waiting count once one entry has left the outbox. */
  #left(): number {
    return Math.max(0, this.#counts.waiting - 1);
  }

  #payloadOf(ref: OutboxRef): Promise<unknown | null> {
    return ref.kind === "lap"
      ? this.#payloads.lapFile(ref.id)
      : this.#payloads.bundleFile(ref.slug);
  }

  #post(ref: OutboxRef, payload: unknown): Promise<HubAnswer> {
    const signal = this.#abort.signal;
    return ref.kind === "lap"
      ? this.#client.pushLap(payload, signal)
      : this.#client.pushVotes(ref.slug, payload, signal);
  }

  #set(change: Partial<SenderCounts>): void {
    const before = JSON.stringify(this.#counts);
    this.#counts = { ...this.#counts, ...change };
    if (JSON.stringify(this.#counts) === before) return;
    for (const fn of this.#changed) fn();
  }
}

/** `lap 12` or `bundle suzuka`, for a driver. */
export function describeRef(ref: OutboxRef): string {
  return ref.kind === "lap" ? `lap ${ref.id}` : `bundle ${ref.slug}`;
}
