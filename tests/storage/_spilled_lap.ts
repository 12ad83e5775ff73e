/**
 * The least a spilled lap needs for the spill to write and read it back: a
 * sequence number, a segment and samples.
 *
 * @module
 */
import type { SpilledLap } from "../../src/storage/spill.ts";

/** One spilled lap with a single sample. */
export const SPILLED_LAP = {
  seq: 1,
  segment: "live",
  session_id: null,
  kind: "live",
  lap: { samples: { t: [0] } },
} as unknown as SpilledLap;
