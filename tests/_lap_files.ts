/**
 * Minimal valid lap files for tests: every required channel, `n` ticks.
 *
 * @module
 */
import { REQUIRED_COLUMNS } from "../src/core/laps/columns.ts";

/** A version 2 lap file with `n` ticks of the required channels; `lap` fields override. */
export function minimalLapFile(n: number, lap: Record<string, unknown> = {}) {
  const samples = Object.fromEntries(
    REQUIRED_COLUMNS.map((c, k) => [
      c,
      Array.from({ length: n }, (_, i) => (c === "t" ? (i + 1) / 60 : i * k)),
    ]),
  );
  return {
    format: "sim-datalogger-lap",
    version: 2,
    lap: { number: 1, time_ms: 1000, samples, ...lap },
  };
}
