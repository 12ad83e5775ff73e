/**
 * The application's event bus: what the TUI and the SSE endpoint subscribe
 * to. Delivery is synchronous and a throwing listener never disturbs the
 * others or the emitter.
 *
 * @module
 */
import type { LapSummary } from "../core/laps/lap.ts";
import type { Session } from "../core/laps/session.ts";
import type { SurveyStatus } from "./survey.ts";

/** Everything the application announces. */
export type AppEvent =
  | { type: "session"; session: Session | null; reason: string }
  | { type: "lap"; lap: LapSummary; session: Session }
  | {
    type: "bundle";
    slug: string;
    track: string;
    /** What changed it: an import (merge), a rename (merge into the new slug), a delete, a survey save, an edit of corners/sections, or the official match. */
    reason: "import" | "rename" | "delete" | "survey" | "authoring" | "official";
  }
  | {
    type: "survey";
    /** What happened: a start, stop, circuit label, mark, changed coverage, or a save. */
    reason: "start" | "stop" | "track" | "mark" | "coverage" | "save";
    status: SurveyStatus;
  };

/** A subscriber. */
export type Listener = (event: AppEvent) => void;

/** A synchronous publish/subscribe hub. */
export class EventBus {
  #listeners = new Set<Listener>();

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
        console.error("event listener failed:", err);
      }
    }
  }

  /** Subscribers currently attached. */
  get size(): number {
    return this.#listeners.size;
  }
}
