/**
 * Messages from the team hub to this driver (issue #40): the newest one,
 * shown for {@linkcode MESSAGE_SHOWN_MS} after it arrived (the live frames
 * carry it, the dashboard's notice line shows it), and the id of the last
 * one taken, kept in the store so a restart does not show old ones again.
 *
 * @module
 */
import type { LiveMessage } from "../../core/hub/live_message.ts";
import { lastMessageId, takeMessageId } from "../../storage/hub_messages.ts";
import type { AppDeps } from "../deps.ts";

/** How long a message stays in the live frames after it arrived, ms. */
export const MESSAGE_SHOWN_MS = 30_000;

/** The messages this logger took from the hub. */
export class HubMessages {
  readonly #deps: Pick<AppDeps, "kv" | "now">;
  #last: number | null | undefined = undefined;
  #current: { message: LiveMessage; at: number } | null = null;
  #listeners = new Set<(message: LiveMessage) => void>();

  /** Messages kept in `deps.kv`, timed by `deps.now`. */
  constructor(deps: Pick<AppDeps, "kv" | "now">) {
    this.#deps = deps;
  }

  /** The id of the last message taken (in this process or one before), null when none was. */
  async lastId(): Promise<number | null> {
    if (this.#last === undefined) this.#last = await lastMessageId(this.#deps.kv);
    return this.#last;
  }

  /**
   * Takes `message` when its id is above the last taken (a repeat after a
   * reconnect is ignored): its id is stored first, so once a message was
   * shown a restart never shows it again; then it becomes the current one
   * and the listeners hear it. Resolves whether it was taken.
   */
  async take(message: LiveMessage): Promise<boolean> {
    const last = await this.lastId();
    if (last !== null && message.id <= last) return false;
    await takeMessageId(this.#deps.kv, message.id);
    this.#last = message.id;
    this.#current = { message, at: this.#deps.now().getTime() };
    for (const fn of this.#listeners) fn(message);
    return true;
  }

  /** The newest message while it is under {@linkcode MESSAGE_SHOWN_MS} old, else null. */
  current(): LiveMessage | null {
    const c = this.#current;
    if (c === null || this.#deps.now().getTime() - c.at >= MESSAGE_SHOWN_MS) return null;
    return c.message;
  }

  /** Calls `fn` with every message taken from now on; returns what stops it. */
  onMessage(fn: (message: LiveMessage) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }
}
