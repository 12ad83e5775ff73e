/**
 * The store's health as announced and reported (see store_health.ts), in a
 * leaf module of types only, so the bus's events can name it.
 *
 * @module
 */

/** Where the store stands. */
export type StoreState = "ok" | "low" | "full" | "read_only";

/** The store's health (`store` in GET /api/status, and the `store` event). */
export interface StoreHealthStatus {
  state: StoreState;
  /** False when writes are refused now (a full disk, or a store opened read-only). */
  writable: boolean;
  /** Why the store was opened read-only, and what to do; null when it was not. */
  read_only_reason: string | null;
  /** The folder whose disk is measured; null for a store in memory. */
  disk: string | null;
  /** Bytes free on that disk, or null when unknown (in memory, or not measurable). */
  free_bytes: number | null;
  /** Free space under which the state is `low`, bytes. */
  low_space_bytes: number;
  /** Laps recorded but not yet stored, in memory or the spill. */
  laps_waiting: number;
  /** Laps lost since the process started: past the memory and spill bounds, or unreadable. */
  laps_dropped: number;
  /** Survey runs whose newest save the store refused and that wait, in memory or the spill. */
  surveys_waiting: number;
  /** Survey runs lost since the process started: past the bounds, or unreadable in the spill. */
  surveys_dropped: number;
  /** The folder of the spill, or null when laps wait in memory only. */
  spill: string | null;
  /** Why the last spill write failed, or null. */
  spill_error: string | null;
  /** What the store said when it last refused a write, or null once a write went through. */
  last_refusal: string | null;
}
