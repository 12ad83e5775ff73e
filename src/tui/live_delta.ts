/**
 * The running gap to a reference lap, for the terminal view: the pure code
 * lives in src/core/analysis/live_delta.ts, shared with the live frames.
 *
 * @module
 */
export {
  deltaToTrace,
  MAX_OFF_LINE_M,
  type ReferencePath as LapTrace,
  type TraceDelta,
} from "../core/analysis/live_delta.ts";
