/**
 * One logger's socket as the hub reads it (#40): a hello (the last message
 * id it saw), then frames, each refused when bad or too big (with an
 * `error` message saying which rule) and dropped past
 * {@linkcode MAX_FRAMES_PER_S} a second. Messages to the driver go out
 * as `{"type": "message", ...}`: first those after the hello's id, then
 * each new one, each once and in id order. Independent of the socket
 * itself, so the rules are tested without one.
 *
 * @module
 */
import type { MessageRow } from "../../storage/hub/live.ts";
import type { LiveHub } from "./live_hub.ts";
import {
  FrameRate,
  type LinkMessage,
  linkMessageSchema,
  MAX_FRAME_BYTES,
  MAX_FRAMES_PER_S,
} from "./live_rules.ts";

/** What a link sends its logger: a JSON-able object per message. */
export type LinkSend = (message: Record<string, unknown>) => void;

/** Where the driver is, as its hello or frames said. */
interface Where {
  circuit: string | null;
  track_name: string | null;
  car_id: number | null;
}

/** One connected logger of driver `driver`. */
export class LiveLink {
  readonly #hub: LiveHub;
  readonly #driver: string;
  readonly #send: LinkSend;
  readonly #clock: () => number;
  readonly #rate = new FrameRate();
  #where: Where = { circuit: null, track_name: null, car_id: null };
  #detach: (() => void) | null = null;
  /** Messages that arrived while the backlog was read: sent after it, each once. */
  #pending: MessageRow[] | null = null;
  #sentUpTo = 0;
  #closed = false;

  /** A link of `driver` on `hub`, answering through `send`; `clock` in ms (tests fake it). */
  constructor(hub: LiveHub, driver: string, send: LinkSend, clock: () => number = Date.now) {
    this.#hub = hub;
    this.#driver = driver;
    this.#send = send;
    this.#clock = clock;
  }

  /** Frames dropped for the rate so far. */
  get dropped(): number {
    return this.#rate.dropped;
  }

  /** Reads one text message from the logger; resolves once it is handled. */
  async receive(text: string): Promise<void> {
    if (this.#closed) return;
    const bytes = new TextEncoder().encode(text).byteLength;
    if (bytes > MAX_FRAME_BYTES) {
      return this.#refuse("message", `is ${bytes} bytes, at most ${MAX_FRAME_BYTES}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return this.#refuse("message", "is not JSON");
    }
    const read = linkMessageSchema.safeParse(json);
    if (!read.success) {
      const issue = read.error.issues[0];
      return this.#refuse(issue.path.join(".") || "message", issue.message);
    }
    if (read.data.type === "hello") return await this.#hello(read.data);
    this.#frame(read.data);
  }

  /** Ends the link: no more messages go to it. */
  close(): void {
    this.#closed = true;
    this.#detach?.();
    this.#detach = null;
  }

  async #hello(hello: Extract<LinkMessage, { type: "hello" }>): Promise<void> {
    this.#where = {
      circuit: hello.circuit ?? null,
      track_name: hello.track_name ?? null,
      car_id: hello.car_id ?? null,
    };
    if (this.#detach !== null) return;
    this.#sentUpTo = hello.last_message_id ?? 0;
    this.#pending = [];
    this.#detach = this.#hub.attachSocket(this.#driver, (m) => {
      if (this.#pending !== null) this.#pending.push(m);
      else this.#deliver(m);
    });
    const past = await this.#hub.backlog(this.#driver, hello.last_message_id);
    const waiting = this.#pending;
    this.#pending = null;
    for (const m of [...past, ...waiting].sort((a, b) => a.id - b.id)) this.#deliver(m);
  }

  #frame(msg: Extract<LinkMessage, { type: "frame" }>): void {
    if (!this.#rate.admit(this.#clock())) {
      // Said once per second of excess, not per frame: the logger is told, the link not flooded.
      if (this.#rate.dropped % MAX_FRAMES_PER_S === 1) {
        this.#refuse("frame", `more than ${MAX_FRAMES_PER_S} frames a second: dropped`);
      }
      return;
    }
    const f = msg.frame;
    if (f.circuit !== undefined) this.#where.circuit = f.circuit;
    if (f.track_name !== undefined) this.#where.track_name = f.track_name;
    if (f.car_id !== undefined) this.#where.car_id = f.car_id;
    // Not awaited: the next frame is not held behind this one's database write (publish never throws).
    void this.#hub.publish(this.#driver, f, { ...this.#where, lap: f.lap });
  }

  #deliver(m: MessageRow): void {
    if (this.#closed || m.id <= this.#sentUpTo) return;
    this.#sentUpTo = m.id;
    this.#send({ type: "message", id: m.id, text: m.text, from: m.from, sent_at: m.sent_at });
  }

  #refuse(field: string, rule: string): void {
    this.#send({ type: "error", field, message: `${field} ${rule}` });
  }
}
