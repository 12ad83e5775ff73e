/**
 * A Server-Sent Events reader for tests: parses messages off a fetch body
 * and stamps each with the time it arrived.
 *
 * @module
 */

/**
 * How long {@linkcode SseReader.waitFor} waits by default: long enough that
 * only a hang (an event that never comes) runs into it, however busy the
 * machine. How soon events arrive is measured by bench/events_bench.ts.
 */
export const HANG_MS = 120_000;

/** One message received. */
export interface SseMessage {
  /** The `event:` field, or "comment" for a comment line block. */
  event: string;
  data: string;
  /** performance.now() when the message was parsed. */
  at: number;
}

/** Reads an event stream; `messages` grows as they arrive. */
export class SseReader {
  readonly messages: SseMessage[] = [];
  readonly done: Promise<void>;
  #waiters: (() => void)[] = [];
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #ended = false;

  /** Starts reading `res`'s body in the background. */
  constructor(res: Response) {
    this.#reader = res.body!.getReader();
    this.done = this.#read();
  }

  /** Stops reading and closes the connection; resolves once reading ended. */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
    await this.done;
  }

  async #read(): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { done, value: chunk } = await this.#reader.read();
        if (done) break;
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          this.#parse(block);
        }
      }
    } catch {
      // The stream was cut; what arrived stays in `messages`.
    }
    this.#ended = true;
    for (const w of this.#waiters.splice(0)) w();
  }

  #parse(block: string): void {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    // A block with no data (comments, a retry hint) dispatches no event.
    const kind = data.length === 0 ? "comment" : event;
    this.messages.push({ event: kind, data: data.join("\n"), at: performance.now() });
    for (const w of this.#waiters.splice(0)) w();
  }

  /**
   * Resolves with the first message matching `pred`, already received or
   * the next to arrive. Rejects once the stream ended without one, or after
   * `ms` (a hang guard, not a latency bound).
   */
  async waitFor(pred: (m: SseMessage) => boolean, ms = HANG_MS): Promise<SseMessage> {
    const deadline = performance.now() + ms;
    for (;;) {
      const found = this.messages.find(pred);
      if (found) return found;
      if (this.#ended) throw new Error("the stream ended before a matching event");
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no matching event within ${ms} ms`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        new Promise<void>((r) => this.#waiters.push(r)),
        new Promise<void>((r) => timer = setTimeout(r, left)),
      ]);
      clearTimeout(timer);
    }
  }
}
