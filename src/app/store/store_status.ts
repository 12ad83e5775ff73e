/**
 * The store's health as announced and reported (see store_health.ts), in a
 * leaf module of types only, so the bus's events can name it.
 *
 * @module
 */

import { z } from "zod";

const count = z.int().min(0);

/**
 * The store's health (`store` in GET /api/status, and the `store` event):
 * the response schema, and through `z.output` the type the service answers
 * with, so the two cannot drift.
 */
export const storeHealthSchema = z.strictObject({
  state: z.enum(["ok", "low", "full", "read_only"]),
  /** False when writes are refused now (a full disk, or a store opened read-only). */
  writable: z.boolean(),
  /** Why the store was opened read-only, and what to do; null when it was not. */
  read_only_reason: z.string().nullable(),
  /** The folder whose disk is measured; null for a store in memory. */
  disk: z.string().nullable(),
  /** Bytes free on that disk, or null when unknown (in memory, or not measurable). */
  free_bytes: count.nullable(),
  /** Free space under which the state is `low`, bytes. */
  low_space_bytes: count,
  /** Laps recorded but not yet stored, in memory or the spill. */
  laps_waiting: count,
  /** Laps lost since the process started: past the memory and spill bounds, or unreadable. */
  laps_dropped: count,
  /** Survey runs whose newest save the store refused and that wait, in memory or the spill. */
  surveys_waiting: count,
  /** Survey runs lost since the process started: past the bounds, or unreadable in the spill. */
  surveys_dropped: count,
  /** The folder of the spill, or null when laps wait in memory only. */
  spill: z.string().nullable(),
  /** Why the last spill write failed, or null. */
  spill_error: z.string().nullable(),
  /** What the store said when it last refused a write, or null once a write went through. */
  last_refusal: z.string().nullable(),
}).meta({ id: "StoreHealth" });

/** Where the store stands. */
export type StoreState = z.output<typeof storeHealthSchema>["state"];

/** The store's health (`store` in GET /api/status, and the `store` event). */
export type StoreHealthStatus = z.output<typeof storeHealthSchema>;
