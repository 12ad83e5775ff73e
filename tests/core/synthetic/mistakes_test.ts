import { strict as assert } from "node:assert";
import { planDrive } from "../../../src/core/synthetic/drive.ts";

Deno.test("a mistake changes only its lap's time, and only slows it", () => {
  const clean = planDrive({ seed: 25, laps: 3, steady: true });
  const bad = planDrive({
    seed: 25,
    laps: 3,
    steady: true,
    mistakes: [{ kind: "slow_apex", lap: 2, atM: 1900, kmh: 8 }],
  });
  assert.equal(bad.lapTimesMs[0], clean.lapTimesMs[0]);
  assert.ok(bad.lapTimesMs[1] > clean.lapTimesMs[1] + 50, `${bad.lapTimesMs}`);
});

Deno.test("a mistake off the drive's timed laps, of no size, or away from any corner is refused", () => {
  const base = { seed: 25, laps: 2, steady: true };
  assert.throws(
    () => planDrive({ ...base, mistakes: [{ kind: "lift", lap: 3, atM: 500, metres: 10 }] }),
    /mistake lap must be a timed lap from 1 to 2, got 3/,
  );
  assert.throws(
    () => planDrive({ ...base, mistakes: [{ kind: "brake_early", lap: 1, atM: 500, metres: 0 }] }),
    /mistake size must be positive, got 0/,
  );
  assert.throws(
    () => planDrive({ ...base, mistakes: [{ kind: "lift", lap: 1, atM: 99_999, metres: 10 }] }),
    /no corner within 80 m/,
  );
});
