/**
 * The application's event bus: what the TUI and the SSE endpoint subscribe
 * to. Delivery is synchronous and a throwing listener never disturbs the
 * others or the emitter; its failure goes to the log.
 *
 * @module
 */
import type { AppEvent, Listener } from "./events.ts";
import { type Log, silentLog } from "./log.ts";

/** A synchronous publish/subscribe hub. */
export class EventBus {
  #listeners = new Set<Listener>();
  readonly #log: Log;

  /** A bus reporting a throwing listener to `log` (by default, nowhere). */
  constructor(log: Log = silentLog) {
    this.#log = log;
  }

  /** Subscribes `listener`; returns the function that unsubscribes it. */
  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Delivers `event` to every subscriber. */
  emit(event: AppEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (err) {
        this.#log.error("event listener failed", err);
      }
    }
  }

  /** Subscribers currently attached. */
  get size(): number {
    return this.#listeners.size;
  }
}
