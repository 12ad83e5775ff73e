import { strict as assert } from "node:assert";
import type { AppEvent } from "../../src/app/events.ts";
import { judgeCoverage } from "../../src/core/laps/coverage.ts";
import type { LapSummary } from "../../src/core/laps/lap.ts";
import type { Session } from "../../src/core/laps/session.ts";
import { describeEvent } from "../../src/cli/console_output.ts";

const SESSION: Session = {
  id: 4,
  kind: "live",
  started_at: "2026-11-21T12:00:00.000Z",
  updated_at: "2026-11-21T12:03:00.000Z",
  car_id: 3315,
  car_name: "McLaren VGT",
  track_name: "Suzuka Circuit",
  track_source: "user",
  lap_count: 2,
  best_lap_time_ms: 99036,
};

/** The lap event of a lap of 99.036 s holding `samples` ticks with `gap` lost in a row. */
function lapEvent(samples: number, gap: number, time_ms = 99036): AppEvent {
  const coverage = judgeCoverage({ timeMs: time_ms, samples, filled: 0, longestGap: gap });
  const lap = {
    number: 2,
    time_ms,
    total_ticks: samples,
    fuel_consumed: 1.5,
    frames_dropped: gap,
    counts_for_best: coverage.complete,
    ...coverage,
  } as LapSummary;
  return { type: "lap", lap, session: SESSION };
}

Deno.test("the console line of a complete best lap", () => {
  assert.equal(
    describeEvent(lapEvent(5942, 0)),
    "lap 2  1:39.036  5942 samples  fuel 1.50  session 4 (Suzuka Circuit)  [best]",
  );
});

Deno.test("the console line of an incomplete lap says what it lacks and that it is no best", () => {
  // At the session best's very time: an incomplete lap is still not called the best.
  assert.equal(
    describeEvent(lapEvent(5822, 120)),
    "lap 2  1:39.036  5822 samples  fuel 1.50  session 4 (Suzuka Circuit)  " +
      "[incomplete: 120 of 5942 samples missing, longest gap 120 packets, " +
      "not counted for best, 120 packets lost]",
  );
});
