/**
 * The narrow dependencies every application service is built from. A
 * service takes these (and the services it calls), never the whole `App`.
 *
 * @module
 */
import type { EventBus } from "./bus.ts";
import type { Log } from "./log.ts";

export type { Log } from "./log.ts";

/** What every service is built from: one store, one bus, one clock, one source id, one log. */
export interface AppDeps {
  /** The store. */
  kv: Deno.Kv;
  /** Announcements for the faces (TUI, SSE) and for services that follow each other. */
  bus: EventBus;
  /** The clock. */
  now: () => Date;
  /** This installation's anonymous source id. */
  sourceId: string;
  /** Where background failures are reported. */
  log: Log;
}
