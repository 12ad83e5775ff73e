/**
 * The race engineer's fan-out (#40): frames from the drivers' sockets to
 * the engineers' streams, and messages from the engineers to the drivers'
 * sockets, on whichever hub process each is connected to. What reaches
 * this process is delivered here at once; on PostgreSQL it is also sent
 * with NOTIFY (channels {@linkcode FRAME_CHANNEL} and
 * {@linkcode MESSAGE_CHANNEL}, tagged with this process's origin so it
 * skips its own), and every other process delivers it to its own
 * clients. On PGlite one process holds the database, so the local
 * delivery is all there is. A frame too big for a NOTIFY (8000 bytes) is
 * sent by reference: the row it was written to. Nothing here waits for a
 * slow client: subscribers are called synchronously and queue (bounded)
 * on their own.
 *
 * @module
 */
import { NotFound } from "../../core/errors.ts";
import {
  activeDriver,
  insertMessage,
  type LiveRow,
  liveSince,
  type MessageRow,
  messagesAfter,
  storedFrame,
  writeLive,
} from "../../storage/hub/live.ts";
import type { SqlPort } from "../../storage/hub/sql_port.ts";
import { messageBodySchema, ON_TRACK_S } from "./live_rules.ts";
import type { Principal } from "./principal.ts";
import { parseFields } from "../request_body.ts";

/** The NOTIFY channel of frames. */
export const FRAME_CHANNEL = "live_frame";
/** The NOTIFY channel of messages. */
export const MESSAGE_CHANNEL = "driver_message";
/** PostgreSQL's largest NOTIFY payload, bytes. */
export const NOTIFY_MAX_BYTES = 8000;
/** Least time between two writes of one driver's row, ms. */
export const LIVE_WRITE_MS = 1000;
/** Frames of one driver that may wait for the database (2 s at 10 Hz); older ones are dropped. */
export const OUTBOX_FRAMES = 20;
/** Most messages a reconnecting logger is sent from before it connected. */
export const BACKLOG_LIMIT = 200;

/**
 * One frame as engineers get it: `text` is the JSON of
 * `{"driver", "received_at", "frame"}`, made once; every subscriber gets
 * the same object, so a face may encode it once per frame too.
 */
export interface FramePayload {
  driver: string;
  text: string;
}

/** What a socket's frame says of where the driver is. */
export interface FrameInfo {
  circuit: string | null;
  track_name: string | null;
  car_id: number | null;
  lap: number;
}

/** Counters of one hub process's fan-out. */
export interface LiveHubStats {
  framesIn: number;
  framesFromPeers: number;
  /** Frames not sent to the other processes: {@linkcode OUTBOX_FRAMES} newer ones waited. */
  framesSkipped: number;
  notifyErrors: number;
}

/** A frame on its way to the database. */
interface Outgoing {
  payload: FramePayload;
  info: FrameInfo;
  at: number;
}

const encoder = new TextEncoder();

/** The fan-out of one hub process; {@linkcode start} before use, {@linkcode stop} after. */
export class LiveHub {
  readonly #db: SqlPort;
  readonly #now: () => Date;
  readonly #origin = crypto.randomUUID();
  readonly #streams = new Map<string, Set<(f: FramePayload) => void>>();
  readonly #sockets = new Map<string, Set<(m: MessageRow) => void>>();
  readonly #lastWrite = new Map<string, number>();
  readonly #outbox = new Map<string, { busy: boolean; queue: Outgoing[] }>();
  #unlisten: (() => Promise<void>)[] = [];
  #started: Promise<void> | null = null;
  readonly #closers = new Set<() => void>();
  /** What went through this process. */
  readonly stats: LiveHubStats = {
    framesIn: 0,
    framesFromPeers: 0,
    framesSkipped: 0,
    notifyErrors: 0,
  };

  /** The fan-out over `db`, reading time from `now`. */
  constructor(db: SqlPort, now: () => Date = () => new Date()) {
    this.#db = db;
    this.#now = now;
  }

  /** Whether other hub processes may share the database (PostgreSQL): then NOTIFY carries. */
  get shared(): boolean {
    return this.#db.kind === "postgres";
  }

  /**
   * Listens to the other processes' frames and messages (on PostgreSQL);
   * resolves once listening. Called again, it answers the same promise.
   */
  start(): Promise<void> {
    return this.#started ??= this.#listen();
  }

  async #listen(): Promise<void> {
    if (!this.shared) return;
    this.#unlisten.push(await this.#db.listen(FRAME_CHANNEL, (p) => this.#onPeerFrame(p)));
    this.#unlisten.push(await this.#db.listen(MESSAGE_CHANNEL, (p) => this.#onPeerMessage(p)));
  }

  /** Calls `fn` when the hub stops (a face ends its streams and sockets); answers the remover. */
  onStop(fn: () => void): () => void {
    this.#closers.add(fn);
    return () => this.#closers.delete(fn);
  }

  /** Ends every stream and socket (see {@linkcode onStop}) and stops listening. */
  async stop(): Promise<void> {
    for (const fn of [...this.#closers]) fn();
    this.#closers.clear();
    await this.#started?.catch(() => {});
    const offs = this.#unlisten.splice(0);
    await Promise.all(offs.map((off) => off().catch(() => {})));
  }

  /** Whether `driver` is one of the team's drivers with a standing token. */
  knows(driver: string): Promise<boolean> {
    return activeDriver(this.#db, driver);
  }

  /** Calls `fn` with every frame of `driver` from now on; answers the unsubscriber. */
  follow(driver: string, fn: (f: FramePayload) => void): () => void {
    return add(this.#streams, driver, fn);
  }

  /** Calls `fn` with every new message to `driver` (a connected logger); answers the unsubscriber. */
  attachSocket(driver: string, fn: (m: MessageRow) => void): () => void {
    return add(this.#sockets, driver, fn);
  }

  /** How many engineers follow `driver` in this process, and how many loggers are attached. */
  clients(): { streams: number; sockets: number } {
    let streams = 0, sockets = 0;
    for (const s of this.#streams.values()) streams += s.size;
    for (const s of this.#sockets.values()) sockets += s.size;
    return { streams, sockets };
  }

  /**
   * Publishes `frame` of `driver` (received now): to this process's
   * followers at once, then to the other processes; the driver's row is
   * written at most once per {@linkcode LIVE_WRITE_MS}. A database failure
   * is counted, never thrown: the followers here got the frame.
   */
  async publish(driver: string, frame: Record<string, unknown>, info: FrameInfo): Promise<void> {
    const receivedAt = this.#now();
    const payload: FramePayload = {
      driver,
      text: JSON.stringify({ driver, received_at: receivedAt.toISOString(), frame }),
    };
    this.stats.framesIn++;
    deliver(this.#streams.get(driver), payload);
    // One frame of a driver on its way to the database at a time, so the other processes get
    // them in order; at most OUTBOX_FRAMES wait behind it, the oldest dropped first (a slow
    // database costs frames, never memory).
    let out = this.#outbox.get(driver);
    if (out === undefined) this.#outbox.set(driver, out = { busy: false, queue: [] });
    if (out.queue.length >= OUTBOX_FRAMES) {
      out.queue.shift();
      this.stats.framesSkipped++;
    }
    out.queue.push({ payload, info, at: receivedAt.getTime() });
    if (out.busy) return;
    out.busy = true;
    try {
      for (let job = out.queue.shift(); job !== undefined; job = out.queue.shift()) {
        await this.#toDatabase(job);
      }
    } finally {
      out.busy = false;
    }
  }

  async #toDatabase(job: Outgoing): Promise<void> {
    const { driver, text } = job.payload;
    const envelope = JSON.stringify({ o: this.#origin, d: driver, p: text });
    const big = this.shared && encoder.encode(envelope).byteLength > NOTIFY_MAX_BYTES;
    const last = this.#lastWrite.get(driver) ?? -Infinity;
    try {
      if (big || job.at - last >= LIVE_WRITE_MS) {
        this.#lastWrite.set(driver, job.at);
        await writeLive(this.#db, {
          driver,
          ...job.info,
          last_frame_at: new Date(job.at).toISOString(),
          frame: big ? text : null,
        });
      }
      if (!this.shared) return;
      const sent = big ? JSON.stringify({ o: this.#origin, ref: driver }) : envelope;
      await this.#db.notify(FRAME_CHANNEL, sent);
    } catch {
      this.stats.notifyErrors++;
    }
  }

  /**
   * Stores a message from `who` (any team token) and sends it to the
   * driver's logger, on whichever process holds its socket.
   *
   * @throws {BadRequest} naming the field and the rule for a bad body.
   * @throws {NotFound} when no driver of the team has that name.
   */
  async send(who: Principal, body: unknown): Promise<MessageRow> {
    const { driver, text } = parseFields(messageBodySchema, body);
    if (!(await activeDriver(this.#db, driver))) {
      throw new NotFound(`no driver ${driver} in this team (or its token was revoked)`);
    }
    const row = await insertMessage(this.#db, {
      driver,
      text,
      from: who.name,
      sent_at: this.#now().toISOString(),
    });
    deliver(this.#sockets.get(driver), row);
    if (this.shared) {
      await this.#db.notify(MESSAGE_CHANNEL, JSON.stringify({ o: this.#origin, m: row }))
        .catch(() => this.stats.notifyErrors++);
    }
    return row;
  }

  /** `driver`'s messages after id `after` (all when null), oldest first. */
  backlog(driver: string, after: number | null): Promise<MessageRow[]> {
    return messagesAfter(this.#db, driver, after, BACKLOG_LIMIT);
  }

  /** The drivers whose last frame is under {@linkcode ON_TRACK_S} seconds old, by name. */
  onTrack(): Promise<LiveRow[]> {
    const since = new Date(this.#now().getTime() - ON_TRACK_S * 1000).toISOString();
    return liveSince(this.#db, since);
  }

  #onPeerFrame(raw: string): void {
    const note = parseNote(raw);
    if (note === null || note.o === this.#origin) return;
    if (typeof note.p === "string" && typeof note.d === "string") {
      this.#fromPeer({ driver: note.d, text: note.p });
    } else if (typeof note.ref === "string") {
      const driver = note.ref;
      if (!this.#streams.has(driver)) return;
      storedFrame(this.#db, driver).then((text) => {
        if (text !== null) this.#fromPeer({ driver, text });
      }, () => this.stats.notifyErrors++);
    }
  }

  #fromPeer(payload: FramePayload): void {
    this.stats.framesFromPeers++;
    deliver(this.#streams.get(payload.driver), payload);
  }

  #onPeerMessage(raw: string): void {
    const note = parseNote(raw);
    if (note === null || note.o === this.#origin) return;
    const m = note.m as MessageRow | undefined;
    if (m && typeof m.driver === "string") deliver(this.#sockets.get(m.driver), m);
  }
}

const HUBS = new WeakMap<object, LiveHub>();

/**
 * The one fan-out of a hub app (`app`, holding its database): the routes
 * and the server's shutdown find the same one.
 */
export function liveHubOf(app: { readonly db: SqlPort }): LiveHub {
  let hub = HUBS.get(app);
  if (hub === undefined) HUBS.set(app, hub = new LiveHub(app.db));
  return hub;
}

function add<T>(map: Map<string, Set<T>>, key: string, fn: T): () => void {
  let set = map.get(key);
  if (set === undefined) map.set(key, set = new Set());
  set.add(fn);
  return () => {
    set.delete(fn);
    if (set.size === 0 && map.get(key) === set) map.delete(key);
  };
}

function deliver<T>(fns: Set<(x: T) => void> | undefined, x: T): void {
  if (fns === undefined) return;
  for (const fn of [...fns]) fn(x);
}

function parseNote(raw: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(raw);
    return v !== null && typeof v === "object" ? v as Record<string, unknown> : null;
  } catch {
    return null;
  }
}
